// The memory estimate of an nsys SQLite export: the rows of its event tables.
#include <algorithm>
#include <array>

#include "importers/MemoryEstimate.h"
#include "importers/SqliteDb.h"
#include "importers/nsys/NsysSqliteImporter.h"

namespace lanescope {
namespace {

// A SQLite row takes at least this many bytes of the file, which caps a damaged max(rowid).
constexpr uint64_t kMinSqliteRowBytes = 8;

// The nsys tables the importer turns into events or counter points, one per row, and the
// strings.
constexpr std::array kNsysEventTables = {"NVTX_EVENTS",
                                         "CUPTI_ACTIVITY_KIND_RUNTIME",
                                         "CUPTI_ACTIVITY_KIND_DRIVER",
                                         "OSRT_API",
                                         "CUPTI_ACTIVITY_KIND_KERNEL",
                                         "CUPTI_ACTIVITY_KIND_MEMCPY",
                                         "CUPTI_ACTIVITY_KIND_MEMSET",
                                         "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
                                         "GPU_METRICS",
                                         "CUDA_GPU_MEMORY_USAGE_EVENTS",
                                         "PROFILER_OVERHEAD",
                                         "StringIds"};

}  // namespace

// Rows of the event tables: max(rowid) is a lookup, not a scan, and equals the row count in an
// export (rows are never deleted). A table that cannot be read counts nothing: the import will
// say what is wrong with it.
MemoryEstimate NsysSqliteImporter::estimateMemory(const std::filesystem::path& path) const {
    std::error_code ec;
    const uint64_t fileBytes = std::filesystem::file_size(path, ec);
    std::string error;
    auto db = ec ? nullptr : SqliteDb::openReadOnly(path, error);
    if (!db) return estimateFromEvents(path, 0);
    uint64_t rows = 0;
    for (const char* table : kNsysEventTables) {
        if (!db->hasTable(table)) continue;
        SqliteStmt stmt(*db, std::string("SELECT max(rowid) FROM ") + table);
        if (!stmt.prepared() || !stmt.step() || stmt.isNull(0) || stmt.i64(0) <= 0) continue;
        rows += std::min<uint64_t>(static_cast<uint64_t>(stmt.i64(0)), fileBytes / kMinSqliteRowBytes);
    }
    return estimateFromEvents(path, rows);
}

}  // namespace lanescope
