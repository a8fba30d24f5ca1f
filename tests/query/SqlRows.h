#pragma once
// What the SQL tests compare: a query's rows as sorted text lines, from Lanescope's tables or
// from sqlite3 on an nsys export.
#include <sqlite3.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "query/ReportSql.h"

namespace lanescope::test {

using Rows = std::vector<std::string>;  // each row as "cell|cell|...", sorted

inline std::string cellText(const sql::SqlCell& cell) {
    if (std::holds_alternative<std::monostate>(cell)) return "NULL";
    if (const auto* i = std::get_if<int64_t>(&cell)) return std::to_string(*i);
    if (const auto* d = std::get_if<double>(&cell)) return std::to_string(*d);
    return std::get<std::string>(cell);
}

inline Rows sortedRows(const sql::SqlResult& result) {
    Rows rows;
    for (const auto& row : result.rows) {
        std::string line;
        for (const auto& cell : row) line += cellText(cell) + "|";
        rows.push_back(line);
    }
    std::sort(rows.begin(), rows.end());
    return rows;
}

// A SQL session over a report, which must open.
inline std::unique_ptr<sql::ReportSql> openSqlOk(const Report& report) {
    std::string error;
    auto session = sql::ReportSql::open(report, error);
    INFO(error);
    REQUIRE(session);
    return session;
}

// The rows of a prepared statement, stepped to its end.
inline Rows stepRows(sqlite3_stmt* stmt) {
    sql::SqlResult result;
    result.columns.resize(size_t(sqlite3_column_count(stmt)));
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        auto& cells = result.rows.emplace_back();
        for (int c = 0; c < int(result.columns.size()); ++c) cells.push_back(sql::cellOf(stmt, c));
    }
    return sortedRows(result);
}

// The rows sqlite3 itself returns on a SQLite file, opened read-only; nullopt when the file has
// no table of that name (nsys writes only the tables of what the report recorded).
inline std::optional<Rows> exportRows(const std::filesystem::path& file, const std::string& query) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(("file:" + file.string() + "?immutable=1").c_str(), &db,
                            SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) == SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, query.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
        const std::string error = sqlite3_errmsg(db);
        sqlite3_close(db);
        INFO(query << ": " << error);
        REQUIRE(error.rfind("no such table", 0) == 0);
        return std::nullopt;
    }
    Rows rows = stepRows(stmt);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return rows;
}

// The rows Lanescope's tables return; the query must succeed.
inline Rows lanescopeRows(sql::ReportSql& session, const std::string& query) {
    sql::SqlResult result;
    const std::string error = session.query(query, result);
    INFO(query << ": " << error);
    REQUIRE(error.empty());
    return sortedRows(result);
}

// At most five rows of `a` that `b` lacks, for a failure message short enough to read.
inline std::string onlyIn(const Rows& a, const Rows& b) {
    Rows missing;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(missing));
    std::string text = std::to_string(missing.size()) + " rows";
    for (size_t i = 0; i < std::min<size_t>(missing.size(), 5); ++i) text += "\n  " + missing[i];
    return text;
}

}  // namespace lanescope::test
