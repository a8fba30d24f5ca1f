#pragma once
#include <sqlite3.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/Report.h"

namespace lanescope::sql {

// One cell of a result: NULL, an integer, a real or text.
using SqlCell = std::variant<std::monostate, int64_t, double, std::string>;
// A query's result, row by row; rows[i].size() == columns.size().
struct SqlResult {
    std::vector<std::string> columns;
    std::vector<std::vector<SqlCell>> rows;
};

// SQL over one report held in memory: an in-memory SQLite connection whose tables are virtual
// tables reading the model (no copy), named and shaped like Nsight Systems 2025.3's SQLite
// export, beside Lanescope's own (docs/sql.md lists them all). Queries cannot write, attach
// or change anything. One thread at a time; the report must outlive it.
class ReportSql {
public:
    // nullptr with the reason in `error` when the tables cannot be made.
    static std::unique_ptr<ReportSql> open(const Report& report, std::string& error);
    ~ReportSql();
    ReportSql(const ReportSql&) = delete;
    ReportSql& operator=(const ReportSql&) = delete;

    // Runs the statements of `sql` in order. For each, onColumns gets its column names, then
    // onRow each row (return false to stop early). Returns "" or SQLite's message in one line.
    // `stop`, when set, interrupts the query ("interrupted").
    using OnColumns = std::function<void(const std::vector<std::string>& names)>;
    using OnRow = std::function<bool(sqlite3_stmt* row)>;
    std::string run(std::string_view sql, const OnColumns& onColumns, const OnRow& onRow,
                    const std::atomic<bool>* stop = nullptr);
    // The last statement's whole result.
    std::string query(std::string_view sql, SqlResult& result, const std::atomic<bool>* stop = nullptr);

    // The tables, sorted by name: nsys's first (upper case), then Lanescope's own.
    std::vector<std::string> tableNames();
    // Whether a table's rowid is the one nsys's export gives the row (TableSpec::numbersRowsAsNsys).
    bool numbersRowsAsNsys(const std::string& table) const;
    // The connection (read-only, as for every query).
    sqlite3* handle() const { return db_; }

private:
    explicit ReportSql(sqlite3* db) : db_(db) {}
    static int authorize(void* self, int action, const char*, const char*, const char*, const char*);

    sqlite3* db_;
    const std::atomic<bool>* stop_ = nullptr;
    std::vector<std::string> numberedAsNsys_;  // the tables numbering their rows as nsys does
};

// A cell of a result row as SQLite holds it.
SqlCell cellOf(sqlite3_stmt* row, int column);

}  // namespace lanescope::sql
