#pragma once
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "importers/Importer.h"

namespace lanescope::bench {

// A progress sink that times the stages an import goes through: a stage lasts from its first
// progress report until the first report of another stage. Each stage gets its wall time and
// the CPU time of the whole process meanwhile (all threads), so cpu / wall tells how many
// cores it kept busy. Stages of the same name add up, in the order first seen.
class StageTimes final : public ProgressSink {
public:
    struct Stage {
        std::string name;
        double wall_s = 0, cpu_s = 0;
    };

    StageTimes();
    void progress(std::string_view stage, uint64_t done, uint64_t total) override;
    // Closes the stage under way and returns every stage.
    std::vector<Stage> finish();

    // "name=wall=cpu;..." with spaces in names as '_', and back: one line between processes.
    static std::string encode(const std::vector<Stage>& stages);
    static std::vector<Stage> decode(std::string_view text);

private:
    void close(double wall, double cpu);

    std::mutex mutex_;
    std::vector<Stage> stages_;
    std::string current_;
    double currentWall_ = 0, currentCpu_ = 0;
};

}  // namespace lanescope::bench
