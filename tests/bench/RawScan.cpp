#include "tests/bench/RawScan.h"

#include <sqlite3.h>

#include <algorithm>
#include <string>
#include <vector>

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

std::vector<std::string> columnsOf(sqlite3* db, const std::string& table) {
    std::vector<std::string> names;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, ("PRAGMA table_info(\"" + table + "\")").c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
        return names;
    }
    while (sqlite3_step(stmt) == SQLITE_ROW)
        names.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1)));
    sqlite3_finalize(stmt);
    return names;
}

// The aggregate query over the columns of `table` that exist; "" when the table does not.
std::string scanQuery(sqlite3* db, const ScannedTable& table) {
    const std::vector<std::string> present = columnsOf(db, table.name);
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
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return std::nullopt;
    }
    std::vector<std::string> queries;
    for (const ScannedTable& table : scannedTables()) {
        if (std::string sql = scanQuery(db, table); !sql.empty()) queries.push_back(std::move(sql));
    }
    std::optional<double> seconds;
    const Stopwatch watch;
    for (const std::string& sql : queries) {
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) continue;
        while (sqlite3_step(stmt) == SQLITE_ROW) {
        }
        sqlite3_finalize(stmt);
    }
    if (!queries.empty()) seconds = watch.seconds();
    sqlite3_close(db);
    return seconds;
}

}  // namespace lanescope::bench
