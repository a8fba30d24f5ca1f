// Import lines in the log (ImportLog.h).
#include "app/log/ImportLog.h"

#include <spdlog/spdlog.h>

namespace lanescope::logging {

LoggedProgress::LoggedProgress(std::string path, ProgressSink& inner) : path_(std::move(path)), inner_(inner) {}

void LoggedProgress::progress(std::string_view stage, uint64_t done, uint64_t total) {
    {
        const std::lock_guard lock(mutex_);
        if (stages_.empty() || stages_.back().first != stage) {
            stages_.emplace_back(std::string(stage), Clock::now());
            spdlog::debug("{}: {} (after {:.3f} s)", path_, stage,
                          std::chrono::duration<double>(stages_.back().second - begin_).count());
        }
    }
    inner_.progress(stage, done, total);
}

std::string LoggedProgress::stageTimes() const {
    const std::lock_guard lock(mutex_);
    std::string out;
    const Clock::time_point now = Clock::now();
    for (size_t i = 0; i < stages_.size(); ++i) {
        const Clock::time_point end = i + 1 < stages_.size() ? stages_[i + 1].second : now;
        if (!out.empty()) out += ", ";
        out += fmt::format("{} {:.2f} s", stages_[i].first,
                           std::chrono::duration<double>(end - stages_[i].second).count());
    }
    return out;
}

double LoggedProgress::elapsedSeconds() const { return std::chrono::duration<double>(Clock::now() - begin_).count(); }

void logImportFailed(const std::string& path, const ImportError& error, const LoggedProgress& progress) {
    const double seconds = progress.elapsedSeconds();
    if (error.kind == ImportError::Kind::Cancelled)
        spdlog::info("{}: import cancelled after {:.2f} s", path, seconds);
    else
        spdlog::warn("{}: cannot import ({}) after {:.2f} s: {}", path, errorKindName(error.kind), seconds,
                     error.message);
}

void logImport(const std::string& path, ImportResult& result, const LoggedProgress& progress) {
    if (result.ok())
        logImported(path, *result.report(), progress);
    else
        logImportFailed(path, result.error(), progress);
}

void logImported(const std::string& path, const Report& report, const LoggedProgress& progress) {
    const double seconds = progress.elapsedSeconds();
    const Metadata& m = report.meta;
    const EventCounts c = report.counts();
    spdlog::info(
        "{}: imported as {} ({} {}) in {:.2f} s: span {:.3f} s, {} interval events ({} kernels, {} memcpy, "
        "{} memset, {} CUDA API, {} NVTX, {} OS runtime, {} NCCL), {} instants, {} counter samples, "
        "{} GPUs, {} processes, rank {}, model {:.1f} MB",
        path, m.format, m.producer, m.version, seconds, double(m.end_ns - m.begin_ns) / 1e9, c.slices, c.kernels,
        c.memcpy, c.memset, c.cuda_api, c.nvtx, c.osrt, c.nccl, c.instants, c.counter_samples, report.gpus.size(),
        report.processes.size(), m.rank, double(report.memoryBytes()) / 1e6);
    spdlog::info("{}: stages: {}", path, progress.stageTimes());
    if (m.reader == "native")
        spdlog::info("{}: read natively (no Nsight Systems needed)", path);
    else if (m.reader == "nsys-export")
        spdlog::info("{}: converted through nsys export (or its cached conversion)", path);
    for (const auto& [name, count] : report.diagnostics) spdlog::info("{}: diagnostic {} = {}", path, name, count);
}

}  // namespace lanescope::logging
