#include "app/gui/panels/query/QueryConnection.h"

#include <chrono>

#include "query/ReportSql.h"

namespace lanescope {
namespace {

bool stopped(const std::atomic<bool>* stop) { return stop && stop->load(std::memory_order_relaxed); }

// A table name as an SQL identifier.
std::string quoted(const std::string& name) {
    std::string q = "\"";
    for (const char c : name) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + '"';
}

}  // namespace

QueryConnection::QueryConnection(std::shared_ptr<const Report> report) : report_(std::move(report)) {}

QueryConnection::~QueryConnection() = default;

sql::ReportSql* QueryConnection::open(std::string& error) {
    if (!sql_ && openError_.empty()) {
        sql_ = sql::ReportSql::open(*report_, openError_);
        if (!sql_ && openError_.empty()) openError_ = "cannot open the report's tables";
    }
    error = openError_;
    return sql_.get();
}

QueryOutcome QueryConnection::run(const std::string& sql, const std::atomic<bool>* stop) {
    QueryOutcome outcome;
    const std::lock_guard lock(mutex_);
    sql::ReportSql* session = open(outcome.error);
    if (!session) return outcome;
    if (stopped(stop)) {
        outcome.error = "interrupted";
        return outcome;
    }
    const auto began = std::chrono::steady_clock::now();
    outcome.error = session->run(
        sql, [&](const std::vector<std::string>& names) { outcome.result.begin(names); },
        [&](sqlite3_stmt* row) { return outcome.result.append(row); }, stop);
    outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    return outcome;
}

std::vector<QueryTable> QueryConnection::tables(const std::atomic<bool>* stop) {
    const std::lock_guard lock(mutex_);
    std::string error;
    sql::ReportSql* session = open(error);
    std::vector<QueryTable> tables;
    if (!session) return tables;
    for (const std::string& name : session->tableNames()) {
        if (stopped(stop)) return {};
        QueryTable& table = tables.emplace_back();
        table.name = name;
        session->run(
            "SELECT * FROM " + quoted(name) + " LIMIT 0",
            [&](const std::vector<std::string>& columns) { table.columns = columns; },
            [](sqlite3_stmt*) { return true; }, stop);
        session->run(
            "SELECT 1 FROM " + quoted(name) + " LIMIT 1", [](const std::vector<std::string>&) {},
            [&](sqlite3_stmt*) {
                table.has_rows = true;
                return false;
            },
            stop);
    }
    return stopped(stop) ? std::vector<QueryTable>{} : tables;
}

}  // namespace lanescope
