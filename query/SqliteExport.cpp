#include "query/SqliteExport.h"

#include <unistd.h>

#include <cctype>
#include <ctime>
#include <system_error>
#include <utility>
#include <vector>

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

// A table's CREATE TABLE in the export: its columns with their declared types, read from the
// virtual table; "" when it cannot be read. StringIds keeps its id as the primary key, as nsys's
// export does. columns: set to the number of columns; names: set to "c1, c2, ...".
std::string createStatement(sqlite3* session, const std::string& table, int& columns, std::string& names) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(session, ("SELECT * FROM main." + table + " LIMIT 0").c_str(), -1, &stmt, nullptr) !=
        SQLITE_OK)
        return {};
    columns = sqlite3_column_count(stmt);
    std::string sql = "CREATE TABLE " + table + " (";
    for (int c = 0; c < columns; ++c) {
        const char* type = sqlite3_column_decltype(stmt, c);
        sql += std::string(c ? ", " : "") + sqlite3_column_name(stmt, c) + " " + (type ? type : "");
        names += std::string(c ? ", " : "") + sqlite3_column_name(stmt, c);
        if (table == "StringIds" && c == 0) sql += " NOT NULL PRIMARY KEY";
    }
    sqlite3_finalize(stmt);
    return sql + ")";
}

// Whether a table is one of nsys's (upper case), which nsys's export holds only when it has rows:
// its scripts tell "no such data" by the table's absence.
bool nsysTable(const std::string& table) {
    return !table.empty() && std::isupper(static_cast<unsigned char>(table[0]));
}

// Whether nsys's export writes a table's rows in start order, which a script's scan of the table
// then follows (rows of the same sort key in a rule come in that order): its CUDA activity tables.
// Lanescope's tables read a lane, then the next one.
bool nsysOrdersByStart(const std::string& table, const std::string& columnNames) {
    const std::string names = ", " + columnNames + ",";
    return table.rfind("CUPTI_ACTIVITY_KIND_", 0) == 0 && names.find(", start,") != std::string::npos;
}

// Copies one table of the session into the open export, leaving out an nsys table without rows,
// keeping the rowids of a table that numbers its rows as nsys does and the order of one nsys
// writes by start; "" or the reason.
// tables: counts it when written.
std::string copyTable(ReportSql& session, sqlite3* out, const std::string& table, SqliteExportStats& written) {
    int columns = 0;
    std::string names;
    const std::string create = createStatement(session.handle(), table, columns, names);
    if (create.empty()) return "cannot read table " + table;
    const int first = session.numbersRowsAsNsys(table) ? 1 : 0;  // the rowid, read and written first
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
    std::string error = nsysTable(table) ? std::string() : makeTable();
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

std::string utcNow() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
    return text;
}

// META_DATA_EXPORT's rows: who wrote the file, from what.
std::vector<std::pair<std::string, std::string>> exportMetadata(const Report& report,
                                                                const std::filesystem::path& out) {
    return {
        {"EXPORT_PRODUCT_NAME", "Lanescope"},
        {"EXPORT_PRODUCT_VERSION", LANESCOPE_VERSION},
        {"EXPORT_TIME_UTC", utcNow()},
        {"EXPORT_PARAM_INPUT_FILE", report.meta.fileName()},
        {"EXPORT_PARAM_INPUT_PATH", report.meta.source_path},
        {"EXPORT_PARAM_OUTPUT_PATH", out.string()},
        {"SOURCE_FORMAT", report.meta.format},
        {"SOURCE_PRODUCT", report.meta.producer},
        {"SOURCE_PRODUCT_VERSION", report.meta.nsys_version.empty() ? report.meta.version : report.meta.nsys_version}};
}

}  // namespace

std::string exportSqlite(ReportSql& session, const Report& report, const std::filesystem::path& out, bool overwrite,
                         SqliteExportStats* stats) {
    std::error_code ec;
    if (!overwrite && std::filesystem::exists(out, ec)) return out.string() + " exists (use --force to replace it)";
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
    for (const std::string& table : session.tableNames()) {
        if (!error.empty()) break;
        error = copyTable(session, db, table, written);
    }
    if (error.empty()) error = exec(db, "CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT)");
    for (const auto& [name, value] : exportMetadata(report, out))
        if (error.empty())
            error = exec(db, "INSERT INTO META_DATA_EXPORT VALUES (" + quoted(name) + ", " + quoted(value) + ")");
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
