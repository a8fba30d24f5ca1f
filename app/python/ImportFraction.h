#pragma once
#include <atomic>
#include <mutex>
#include <string>

#include "importers/Importer.h"

namespace lanescope::python {

// An import's progress as one fraction 0..1 that only grows, for lanescope.open(progress=...).
// An importer reports stages one after another, each with done/total in units of its own (or
// 0/0, unknown), and nobody knows beforehand how many stages follow. So each stage entered
// covers a third of what is left of 0..1, and within a stage that counts its work the fraction
// moves through that third as done/total grows. It is not proportional to time; the caller
// says 1 once the report is ready. Thread-safe (importers report from worker threads).
class ImportFraction final : public ProgressSink {
public:
    void progress(std::string_view stage, uint64_t done, uint64_t total) override;
    double fraction() const { return fraction_.load(std::memory_order_relaxed); }

private:
    std::mutex mutex_;
    std::string stage_;      // the stage being reported, guarded by mutex_
    double stageStart_ = 0;  // where its share begins, guarded by mutex_
    double stageShare_ = 0;  // how much of 0..1 it covers, guarded by mutex_
    std::atomic<double> fraction_{0};
};

}  // namespace lanescope::python
