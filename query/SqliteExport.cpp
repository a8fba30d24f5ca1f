#include "query/SqliteExport.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iterator>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

#include "query/NsysDeclarations.h"

namespace lanescope::sql {
namespace {

// Runs one statement of the export; "" or SQLite's message.
std::string exec(sqlite3* db, const std::string& statement) {
    char* message = nullptr;
    if (sqlite3_exec(db, statement.c_str(), nullptr, nullptr, &message) == SQLITE_OK) return {};
    std::string error = message ? message : sqlite3_errmsg(db);
    sqlite3_free(message);
    return error;
}

std::string quoted(const std::string& text) {
    std::string q = "'";
    for (char c : text) q += c == '\'' ? std::string("''") : std::string(1, c);
    return q + "'";
}

// The columns of nsys's NOT NULL ones (space separated) in which a table has no NULL: the ones
// the export declares NOT NULL. A column Lanescope cannot fill for every row (docs/sql.md lists
// them) is declared without it, as SQLite would refuse the row.
std::string notNullColumns(sqlite3* session, const std::string& table, std::string_view declared) {
    std::vector<std::string> names;
    for (size_t at = 0; at < declared.size();) {
        const size_t space = std::min(declared.find(' ', at), declared.size());
        names.emplace_back(declared.substr(at, space - at));
        at = space + 1;
    }
    if (names.empty()) return {};
    std::string sql = "SELECT ";
    for (size_t i = 0; i < names.size(); ++i)
        sql += (i ? ", " : "") + std::string("count(*) - count(") + names[i] + ")";
    sqlite3_stmt* stmt = nullptr;
    std::string held;
    if (sqlite3_prepare_v2(session, (sql + " FROM main." + table).c_str(), -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW)
        for (size_t i = 0; i < names.size(); ++i)
            if (sqlite3_column_int64(stmt, int(i)) == 0) held += (held.empty() ? "" : " ") + names[i];
    sqlite3_finalize(stmt);
    return held;
}

// A table's CREATE TABLE in the export: its columns with their declared types, read from the
// virtual table, and for nsys's tables nsys's NOT NULL columns (those without NULL here) and
// primary key; "" when it cannot be read. columns: set to the number of columns; names: set to
// "c1, c2, ...". rowidIsKey: set when the primary key is one INTEGER column, which is then the
// rowid.
std::string createStatement(sqlite3* session, const std::string& table, int& columns, std::string& names,
                            bool& rowidIsKey) {
    const NsysDeclaration* declared = nsysDeclaration(table);
    const std::string notNull = declared ? notNullColumns(session, table, declared->notNull) : std::string();
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(session, ("SELECT * FROM main." + table + " LIMIT 0").c_str(), -1, &stmt, nullptr) !=
        SQLITE_OK)
        return {};
    const std::string_view key = declared ? declared->primaryKey : std::string_view();
    const bool oneColumnKey = !key.empty() && key.find(' ') == std::string_view::npos;
    columns = sqlite3_column_count(stmt);
    rowidIsKey = false;
    std::string sql = "CREATE TABLE " + table + " (";
    for (int c = 0; c < columns; ++c) {
        const std::string name = sqlite3_column_name(stmt, c);
        const char* type = sqlite3_column_decltype(stmt, c);
        sql += std::string(c ? ", " : "") + name + " " + (type ? type : "");
        names += std::string(c ? ", " : "") + name;
        if (namesHold(notNull, name)) sql += " NOT NULL";
        if (oneColumnKey && key == name) {
            sql += " PRIMARY KEY";
            rowidIsKey = type && std::string_view(type) == "INTEGER";
        }
    }
    sqlite3_finalize(stmt);
    if (!key.empty() && !oneColumnKey) {
        std::string list(key);
        for (size_t at = list.find(' '); at != std::string::npos; at = list.find(' ', at + 2))
            list.replace(at, 1, ", ");
        sql += ", PRIMARY KEY (" + list + ")";
    }
    return sql + ")";
}

// Whether nsys's export writes a table's rows in start order, which a script's scan of the table
// then follows (rows of the same sort key in a rule come in that order): its CUDA activity tables.
// Lanescope's tables read a lane, then the next one.
bool nsysOrdersByStart(const std::string& table, const std::string& columnNames) {
    const std::string names = ", " + columnNames + ",";
    return table.rfind("CUPTI_ACTIVITY_KIND_", 0) == 0 && names.find(", start,") != std::string::npos;
}

// Copies one table of the session into the open export, leaving out an nsys table without rows
// (nsys's export holds a table only when it has rows: its scripts tell "no such data" by the
// table's absence), keeping the rowids of a table that numbers its rows as nsys does and the
// order of one nsys writes by start; "" or the reason. written: counts it when written.
std::string copyTable(ReportSql& session, sqlite3* out, const std::string& table, SqliteExportStats& written) {
    int columns = 0;
    std::string names;
    bool rowidIsKey = false;
    const std::string create = createStatement(session.handle(), table, columns, names, rowidIsKey);
    if (create.empty()) return "cannot read table " + table;
    // The rowid, read and written first (a key column that is the rowid carries it already).
    const int first = session.numbersRowsAsNsys(table) && !rowidIsKey ? 1 : 0;
    sqlite3_stmt* insert = nullptr;
    // Made before the first row (or at once for Lanescope's own tables, kept even empty).
    auto makeTable = [&]() -> std::string {
        if (std::string error = exec(out, create); !error.empty()) return error;
        std::string insertSql = "INSERT INTO " + table + " (" + (first ? "rowid, " : "") + names + ") VALUES (";
        for (int c = 0; c < first + columns; ++c) insertSql += c ? ", ?" : "?";
        if (sqlite3_prepare_v2(out, (insertSql + ")").c_str(), -1, &insert, nullptr) != SQLITE_OK)
            return sqlite3_errmsg(out);
        written.tables += 1;
        return {};
    };
    std::string error = nsysDeclaration(table) ? std::string() : makeTable();
    const std::string readError = session.run(
        std::string("SELECT ") + (first ? "rowid, " : "") + "* FROM main." + table +
            (nsysOrdersByStart(table, names) ? " ORDER BY start" : ""),
        [](const std::vector<std::string>&) {},
        [&](sqlite3_stmt* row) {
            if (error.empty() && !insert) error = makeTable();
            if (!error.empty()) return false;
            for (int c = 0; c < first + columns; ++c) sqlite3_bind_value(insert, c + 1, sqlite3_column_value(row, c));
            if (sqlite3_step(insert) != SQLITE_DONE) error = sqlite3_errmsg(out);
            sqlite3_reset(insert);
            written.rows += 1;
            return error.empty();
        });
    sqlite3_finalize(insert);
    return error.empty() ? readError : error;
}

// nsys's export creates these tables first and last, in these orders, and its event tables
// between them in the order it meets their first events (here: by name).
constexpr std::string_view kNsysFirstTables[] = {"StringIds",
                                                 "ANALYSIS_FILE",
                                                 "ProcessStreams",
                                                 "NVTX_PAYLOAD_SCHEMAS",
                                                 "NVTX_PAYLOAD_SCHEMA_ENTRIES",
                                                 "NVTX_PAYLOAD_ENUMS",
                                                 "NVTX_PAYLOAD_ENUM_ENTRIES",
                                                 "TARGET_INFO_SYSTEM_ENV",
                                                 "TARGET_INFO_SESSION_START_TIME",
                                                 "ANALYSIS_DETAILS",
                                                 "DIAGNOSTIC_EVENT"};
constexpr std::string_view kNsysLastTables[] = {"PROCESSES",
                                                "ThreadNames",
                                                "TARGET_INFO_GPU",
                                                "TARGET_INFO_CUDA_DEVICE",
                                                "TARGET_INFO_CUDA_CONTEXT_INFO",
                                                "TARGET_INFO_CUDA_STREAM",
                                                "ENUM_NSYS_EVENT_TYPE",
                                                "ENUM_NSYS_EVENT_CLASS",
                                                "ENUM_NSYS_GENERIC_EVENT_SOURCE",
                                                "ENUM_NSYS_GENERIC_EVENT_GROUP",
                                                "ENUM_NSYS_GENERIC_EVENT_FIELD_TYPE",
                                                "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_PROPERTY",
                                                "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_TYPE",
                                                "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_FLAGS",
                                                "ENUM_CUDA_MEMCPY_OPER",
                                                "ENUM_CUDA_MEM_KIND",
                                                "ENUM_CUDA_MEMPOOL_TYPE",
                                                "ENUM_CUDA_MEMPOOL_OPER",
                                                "ENUM_CUDA_DEV_MEM_EVENT_OPER",
                                                "ENUM_CUDA_KERNEL_LAUNCH_TYPE",
                                                "ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG",
                                                "ENUM_CUDA_UNIF_MEM_MIGRATION",
                                                "ENUM_CUDA_UNIF_MEM_ACCESS_TYPE",
                                                "ENUM_CUDA_FUNC_CACHE_CONFIG",
                                                "ENUM_CUPTI_STREAM_TYPE",
                                                "ENUM_CUPTI_SYNC_TYPE",
                                                "ENUM_STACK_UNWIND_METHOD",
                                                "ENUM_SAMPLING_THREAD_STATE",
                                                "ENUM_SCHEDULING_THREAD_BLOCK",
                                                "ENUM_DIAGNOSTIC_SEVERITY_LEVEL",
                                                "ENUM_DIAGNOSTIC_SOURCE_TYPE",
                                                "ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE",
                                                "META_DATA_CAPTURE"};

// The tables the export writes, in the order it creates them: nsys's in nsys's order, then
// Lanescope's own when asked for.
std::vector<std::string> exportedTables(ReportSql& session, bool withLanescopeTables) {
    auto rank = [](const std::string& table) {
        for (size_t i = 0; i < std::size(kNsysFirstTables); ++i)
            if (kNsysFirstTables[i] == table) return int(i);
        for (size_t i = 0; i < std::size(kNsysLastTables); ++i)
            if (kNsysLastTables[i] == table) return 1000 + int(i);
        return nsysDeclaration(table) ? 500 : 2000;
    };
    std::vector<std::string> tables;
    for (std::string& table : session.tableNames())
        if (withLanescopeTables || nsysDeclaration(table)) tables.push_back(std::move(table));
    std::stable_sort(tables.begin(), tables.end(),
                     [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
    return tables;
}

// A time as nsys's export writes it: "2026-11-22T02:55:45", in UTC or local time.
std::string timeText(std::time_t when, bool utc) {
    std::tm tm{};
    if (utc)
        gmtime_r(&when, &tm);
    else
        localtime_r(&when, &tm);
    char text[64];
    std::strftime(text, sizeof text, utc ? "%Y-%m-%dT%H:%M:%S" : "%Y-%m-%dT%H:%M:%S %z %Z", &tm);
    return text;
}

std::string hostName() {
    char name[256] = {};
    return gethostname(name, sizeof name - 1) == 0 ? name : "";
}

// META_DATA_EXPORT's rows, named as nsys's export names them, saying who wrote the file, when,
// from what and how. The schema version is the one of nsys 2025.3's export, whose tables these
// are; its checksum and the product date are nsys's own and left NULL (nullopt).
std::vector<std::pair<std::string, std::optional<std::string>>> exportMetadata(const Report& report,
                                                                               const std::filesystem::path& out,
                                                                               bool overwrite, std::time_t started,
                                                                               double seconds) {
    std::error_code ec;
    const std::filesystem::path input(report.meta.source_path);
    char elapsed[32];
    std::snprintf(elapsed, sizeof elapsed, "%.2f sec", seconds);
    const char* user = std::getenv("USER");
    return {{"EXPORT_PRODUCT_NAME", "Lanescope"},
            {"EXPORT_PRODUCT_VERSION", LANESCOPE_VERSION},
            {"EXPORT_PRODUCT_DATE", std::nullopt},
            {"EXPORT_SCHEMA_VERSION", "3.20.3"},
            {"EXPORT_SCHEMA_VERSION_MAJOR", "3"},
            {"EXPORT_SCHEMA_VERSION_MINOR", "20"},
            {"EXPORT_SCHEMA_VERSION_MICRO", "3"},
            {"EXPORT_SCHEMA_VERSION_CKSUM", std::nullopt},
            {"EXPORT_PLATFORM", "linux-desktop"},
            {"EXPORT_ARCH", sizeof(void*) == 8 ? "x64" : "x86"},
            {"EXPORT_TIME_UTC", timeText(started, true)},
            {"EXPORT_TIME_LOCAL", timeText(started, false)},
            {"EXPORT_HOST", hostName()},
            {"EXPORT_USER", user ? user : ""},
            {"EXPORT_PARAM_INPUT_FILE", input.filename().string()},
            {"EXPORT_PARAM_OUTPUT_FILE", out.filename().string()},
            {"EXPORT_PARAM_INPUT_PATH", input.string()},
            {"EXPORT_PARAM_OUTPUT_PATH", out.string()},
            {"EXPORT_PARAM_INPUT_PATH_ABS", std::filesystem::absolute(input, ec).string()},
            {"EXPORT_PARAM_OUTPUT_PATH_ABS", std::filesystem::absolute(out, ec).string()},
            {"EXPORT_PARAM_OVERWRITE", overwrite ? "true" : "false"},
            {"EXPORT_PARAM_APPEND", "false"},
            {"EXPORT_PARAM_LAZY", "true"},
            {"EXPORT_PARAM_TIME_NORMALIZE", "false"},
            {"EXPORT_PARAM_TIME_SHIFT", "0"},
            {"EXPORT_PARAM_TABLES_TO_EXPORT", ""},
            {"EXPORT_PARAM_TIMES_TO_EXPORT", ""},
            {"EXPORT_CONFIG_TIME_SHIFT", "0"},
            {"EXPORT_TIME", elapsed}};
}

}  // namespace

std::string exportSqlite(ReportSql& session, const Report& report, const std::filesystem::path& out,
                         const SqliteExportOptions& options, SqliteExportStats* stats) {
    const std::time_t started = std::time(nullptr);
    const auto clockStart = std::chrono::steady_clock::now();
    std::error_code ec;
    if (!options.overwrite && std::filesystem::exists(out, ec))
        return out.string() + " exists (use --force to replace it)";
    if (std::filesystem::equivalent(out, report.meta.source_path, ec))
        return out.string() + " is the report itself: Lanescope never writes its input";
    const std::filesystem::path partial =
        out.parent_path() / ("." + out.filename().string() + ".partial-" + std::to_string(::getpid()));
    std::filesystem::remove(partial, ec);
    sqlite3* db = nullptr;
    std::string error;
    if (sqlite3_open_v2(partial.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK)
        error = "cannot write " + out.string() + ": " + (db ? sqlite3_errmsg(db) : "out of memory");
    SqliteExportStats written;
    for (const char* pragma : {"PRAGMA journal_mode = OFF", "PRAGMA synchronous = OFF", "BEGIN"})
        if (error.empty()) error = exec(db, pragma);
    for (const std::string& table : exportedTables(session, options.lanescope_tables)) {
        if (!error.empty()) break;
        error = copyTable(session, db, table, written);
    }
    if (error.empty()) error = exec(db, "CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT)");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - clockStart).count();
    for (const auto& [name, value] : exportMetadata(report, out, options.overwrite, started, seconds))
        if (error.empty())
            error = exec(db, "INSERT INTO META_DATA_EXPORT VALUES (" + quoted(name) + ", " +
                                 (value ? quoted(*value) : std::string("NULL")) + ")");
    if (error.empty()) error = exec(db, "COMMIT");
    if (sqlite3_close(db) != SQLITE_OK && error.empty()) error = "cannot close " + partial.string();
    if (error.empty()) {
        std::filesystem::rename(partial, out, ec);
        if (ec) error = "cannot write " + out.string() + ": " + ec.message();
    }
    if (!error.empty()) {
        std::filesystem::remove(partial, ec);
        return error;
    }
    if (stats) *stats = written;
    return {};
}

}  // namespace lanescope::sql
