#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "app/gui/panels/query/QueryResult.h"
#include "model/Report.h"

namespace lanescope {

namespace sql {
class ReportSql;
}

// What one run of a query gave: its rows, or SQLite's one-line message; and how long it took.
struct QueryOutcome {
    QueryResult result;
    std::string error;
    double seconds = 0;
};

// A table of the report's SQL, for the panel's table list and its examples.
struct QueryTable {
    std::string name;
    std::vector<std::string> columns;  // in the table's order
    bool has_rows = false;
};

// One report's SQL connection (sql::ReportSql) for the Query panel's runs off the GUI thread:
// opened by the first run that needs it and then kept, so that each table's event lists are
// built once. Runs take turns: a new one waits for the one it superseded (which was asked to
// stop). Holds the report while a run holds the connection.
class QueryConnection {
public:
    explicit QueryConnection(std::shared_ptr<const Report> report);
    ~QueryConnection();
    QueryConnection(const QueryConnection&) = delete;
    QueryConnection& operator=(const QueryConnection&) = delete;

    const std::shared_ptr<const Report>& report() const { return report_; }
    // Runs the statements of `sql` (the last one's rows are kept); `stop` set interrupts it.
    QueryOutcome run(const std::string& sql, const std::atomic<bool>* stop);
    // The tables, nsys's first, each with its columns (read by preparing SELECT * ... LIMIT 0:
    // the connection refuses PRAGMA) and whether it has rows; empty when `stop` is set.
    std::vector<QueryTable> tables(const std::atomic<bool>* stop);

private:
    // The connection, opened on first use; null with the reason in `error`. Under mutex_.
    sql::ReportSql* open(std::string& error);

    std::shared_ptr<const Report> report_;
    std::mutex mutex_;
    std::unique_ptr<sql::ReportSql> sql_;  // declared after report_: closed before it is released
    std::string openError_;
};

}  // namespace lanescope
