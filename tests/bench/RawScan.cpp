#include "tests/bench/RawScan.h"

#include <algorithm>
#include <string>
#include <vector>

#include "importers/SqliteDb.h"
#include "tests/bench/Measure.h"

namespace lanescope::bench {
namespace {

// The event tables the SQLite importer scans row by row, and the columns of each it reads
// (those of a table's columns that exist are summed).
struct ScannedTable {
    const char* name;
    std::vector<const char*> columns;
};
const std::vector<ScannedTable>& scannedTables() {
    static const std::vector<ScannedTable> tables = {
        {"NVTX_EVENTS", {"start", "end", "globalTid", "textId", "eventType"}},
        {"CUPTI_ACTIVITY_KIND_KERNEL", {"start", "end", "deviceId", "streamId", "correlationId", "shortName"}},
        {"CUPTI_ACTIVITY_KIND_RUNTIME", {"start", "end", "globalTid", "correlationId", "nameId"}},
        {"CUPTI_ACTIVITY_KIND_MEMCPY", {"start", "end", "deviceId", "streamId", "correlationId", "bytes", "copyKind"}},
        {"CUPTI_ACTIVITY_KIND_MEMSET", {"start", "end", "deviceId", "streamId", "correlationId", "bytes"}},
        {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", {"start", "end", "globalTid", "correlationId", "syncType"}},
        {"OSRT_API", {"start", "end", "globalTid", "nameId"}},
    };
    return tables;
}

// The aggregate query over the columns of `table` that exist; "" when the table does not.
std::string scanQuery(const SqliteDb& db, const ScannedTable& table) {
    const std::vector<std::string> present = db.columns(table.name);
    if (present.empty()) return {};
    std::string sql = "SELECT count(*)";
    for (const char* column : table.columns) {
        if (std::find(present.begin(), present.end(), column) != present.end())
            sql += std::string(", total(\"") + column + "\")";
    }
    return sql + " FROM \"" + table.name + "\"";
}

}  // namespace

std::optional<double> rawScanSeconds(const std::filesystem::path& file) {
    std::string error;
    const auto db = SqliteDb::openReadOnly(file, error);
    if (!db) return std::nullopt;
    std::vector<std::string> queries;
    for (const ScannedTable& table : scannedTables()) {
        if (std::string sql = scanQuery(*db, table); !sql.empty()) queries.push_back(std::move(sql));
    }
    if (queries.empty()) return std::nullopt;
    const Stopwatch watch;
    for (const std::string& sql : queries) {
        SqliteStmt stmt(*db, sql);
        while (stmt.step()) {
        }
    }
    return watch.seconds();
}

}  // namespace lanescope::bench
