#pragma once
#include <filesystem>
#include <optional>
#include <stop_token>

#include "importers/Importer.h"
#include "importers/SqliteDb.h"
#include "importers/nsys/ReportBuilder.h"

namespace lanescope::nsys {

// Everything a table reader needs while one nsys export is imported.
struct ImportContext {
    const std::filesystem::path& file;
    const SqliteDb& db;
    ReportBuilder& builder;
    Report& report;
    unsigned threads;
    std::stop_token stop;
    ProgressSink& progress;
};

// Each reader reads its tables when present (absent tables mean no such data) and returns
// an error only for damage that makes the report untrustworthy (or cancellation).
std::optional<ImportError> readNvtx(ImportContext& ctx);
std::optional<ImportError> readCpuCalls(ImportContext& ctx);          // CUDA runtime/driver, OS runtime
std::optional<ImportError> readGpuActivity(ImportContext& ctx);       // kernels, memcpy, memset, sync
std::optional<ImportError> readCounters(ImportContext& ctx);          // GPU metrics, CUDA memory usage
std::optional<ImportError> readProfilerOverhead(ImportContext& ctx);  // PROFILER_OVERHEAD; after the others

}  // namespace lanescope::nsys
