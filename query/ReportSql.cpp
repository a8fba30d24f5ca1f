#include "query/ReportSql.h"

#include <algorithm>
#include <cctype>
#include <thread>

#include "query/CallchainTables.h"
#include "query/CaptureTables.h"
#include "query/CollectivesTable.h"
#include "query/CpuTables.h"
#include "query/CriticalPathTable.h"
#include "query/CudaExtraTables.h"
#include "query/CudaMemoryTables.h"
#include "query/CudaTables.h"
#include "query/EnumTables.h"
#include "query/GenericEventTables.h"
#include "query/GpuMetricTables.h"
#include "query/LanescopeTables.h"
#include "query/MessageTables.h"
#include "query/MpiTables.h"
#include "query/NvtxPayloadTables.h"
#include "query/ReportTables.h"
#include "query/SchedTables.h"
#include "query/UnifiedMemoryTables.h"
#include "query/VirtualTable.h"

namespace lanescope::sql {
namespace {

std::string oneLine(std::string message) {
    std::replace(message.begin(), message.end(), '\n', ' ');
    return message;
}

// Whether the rest of a statement list is only blanks and semicolons (a rest of comments alone
// prepares to no statement, which run() skips).
bool onlyBlanks(std::string_view rest) {
    return std::all_of(rest.begin(), rest.end(), [](char c) { return c == ';' || std::isspace((unsigned char)c); });
}

}  // namespace

std::unique_ptr<ReportSql> ReportSql::open(const Report& report, std::string& error) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr) !=
        SQLITE_OK) {
        error = db ? sqlite3_errmsg(db) : "cannot open an in-memory SQLite database";
        sqlite3_close(db);
        return nullptr;
    }
    std::unique_ptr<ReportSql> session(new ReportSql(db));
    std::vector<std::unique_ptr<TableSpec>> tables;
    addCudaTables(report, tables);
    addCpuTables(report, tables);
    addReportTables(report, tables);
    addCudaExtraTables(report, tables);
    addUnifiedMemoryTables(report, tables);
    addGpuMetricTables(report, tables);
    addMessageTables(report, tables);
    addCaptureTables(report, tables);
    addGenericEventTables(report, tables);
    addCudaMemoryTables(report, tables);
    addEnumTables(report, tables);
    addSchedTables(report, tables);
    addCallchainTables(report, tables);
    addMpiTables(report, tables);
    addLanescopeTables(report, tables);
    addCriticalPathTable(report, tables);
    addCollectivesTable(report, tables);
    addNvtxPayloadTables(report, tables);
    for (const auto& table : tables)
        if (table->numbersRowsAsNsys()) session->numberedAsNsys_.push_back(table->name());
    if (!createVirtualTables(db, std::move(tables), error)) return nullptr;
    // Large sorts (GROUP BY, ORDER BY, DISTINCT) use up to this many helper threads of SQLite's.
    const std::string threads =
        "PRAGMA threads = " + std::to_string(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
    sqlite3_exec(db, threads.c_str(), nullptr, nullptr, nullptr);
    sqlite3_set_authorizer(db, &ReportSql::authorize, session.get());
    return session;
}

ReportSql::~ReportSql() { sqlite3_close(db_); }

bool ReportSql::numbersRowsAsNsys(const std::string& table) const {
    return std::find(numberedAsNsys_.begin(), numberedAsNsys_.end(), table) != numberedAsNsys_.end();
}

int ReportSql::authorize(void*, int action, const char*, const char*, const char*, const char*) {
    switch (action) {
        case SQLITE_SELECT:
        case SQLITE_READ:
        case SQLITE_FUNCTION:
        case SQLITE_RECURSIVE:
            return SQLITE_OK;
        default:
            return SQLITE_DENY;  // writes, ATTACH, PRAGMA, schema changes, transactions
    }
}

std::string ReportSql::run(std::string_view sql, const OnColumns& onColumns, const OnRow& onRow,
                           const std::atomic<bool>* stop) {
    stop_ = stop;
    sqlite3_progress_handler(
        db_, stop ? 1000 : 0,
        [](void* self) { return static_cast<ReportSql*>(self)->stop_->load(std::memory_order_relaxed) ? 1 : 0; }, this);
    std::string error;
    const char* next = sql.data();
    const char* const end = sql.data() + sql.size();
    while (error.empty() && next < end && !onlyBlanks(std::string_view(next, size_t(end - next)))) {
        sqlite3_stmt* stmt = nullptr;
        const char* tail = nullptr;
        if (sqlite3_prepare_v2(db_, next, int(end - next), &stmt, &tail) != SQLITE_OK) {
            error = oneLine(sqlite3_errmsg(db_));
            break;
        }
        next = tail;
        if (!stmt) continue;  // a comment alone
        std::vector<std::string> names;
        for (int c = 0; c < sqlite3_column_count(stmt); ++c) names.emplace_back(sqlite3_column_name(stmt, c));
        onColumns(names);
        int rc = SQLITE_ROW;
        while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
            if (!onRow(stmt)) break;
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) error = oneLine(sqlite3_errmsg(db_));
        sqlite3_finalize(stmt);
    }
    sqlite3_progress_handler(db_, 0, nullptr, nullptr);
    stop_ = nullptr;
    return error;
}

std::string ReportSql::query(std::string_view sql, SqlResult& result, const std::atomic<bool>* stop) {
    return run(
        sql,
        [&](const std::vector<std::string>& names) {
            result.columns = names;
            result.rows.clear();
        },
        [&](sqlite3_stmt* row) {
            auto& cells = result.rows.emplace_back();
            cells.reserve(result.columns.size());
            for (int c = 0; c < int(result.columns.size()); ++c) cells.push_back(cellOf(row, c));
            return true;
        },
        stop);
}

std::vector<std::string> ReportSql::tableNames() {
    std::vector<std::string> names;
    std::string error = run(
        "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name", [](const auto&) {},
        [&](sqlite3_stmt* row) {
            names.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(row, 0)));
            return true;
        });
    // nsys's tables (upper case first letter or all capitals) before Lanescope's lower-case ones.
    std::stable_partition(names.begin(), names.end(),
                          [](const std::string& n) { return !n.empty() && std::isupper((unsigned char)n[0]); });
    return names;
}

SqlCell cellOf(sqlite3_stmt* row, int column) {
    switch (sqlite3_column_type(row, column)) {
        case SQLITE_INTEGER:
            return int64_t(sqlite3_column_int64(row, column));
        case SQLITE_FLOAT:
            return sqlite3_column_double(row, column);
        case SQLITE_NULL:
            return std::monostate{};
        default: {
            const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(row, column));
            return std::string(text ? text : "", size_t(sqlite3_column_bytes(row, column)));
        }
    }
}

}  // namespace lanescope::sql
