#pragma once
#include <chrono>
#include <mutex>
#include <string>
#include <vector>

#include "importers/Importer.h"

namespace lanescope::logging {

// A ProgressSink in front of another that notes when each import stage begins (checking the
// conversion cache, converting with nsys export, strings, building lanes...), logs it at debug
// level and keeps the stages' durations for logImport. Thread-safe, as sinks must be.
class LoggedProgress final : public ProgressSink {
public:
    LoggedProgress(std::string path, ProgressSink& inner);
    void progress(std::string_view stage, uint64_t done, uint64_t total) override;
    // "converting with nsys export 12.31 s, strings 0.20 s, ..." up to now.
    std::string stageTimes() const;
    double elapsedSeconds() const;

private:
    using Clock = std::chrono::steady_clock;
    std::string path_;
    ProgressSink& inner_;
    Clock::time_point begin_ = Clock::now();
    mutable std::mutex mutex_;
    std::vector<std::pair<std::string, Clock::time_point>> stages_;  // in the order they began
};

// Logs a report imported: format, producer, span, event counts, model size, time, stage times
// and every diagnostic (info).
void logImported(const std::string& path, const Report& report, const LoggedProgress& progress);
// Logs an import that failed, with the error's kind (warn), or was cancelled (info).
void logImportFailed(const std::string& path, const ImportError& error, const LoggedProgress& progress);
// Either of the two.
void logImport(const std::string& path, ImportResult& result, const LoggedProgress& progress);

}  // namespace lanescope::logging
