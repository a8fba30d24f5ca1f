#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "importers/Importer.h"
#include "query/ExportQueries.h"
#include "query/ReportSql.h"
#include "tests/bench/Args.h"
#include "tests/bench/Commands.h"
#include "tests/bench/Measure.h"

namespace lanescope::bench {
namespace {

// A query's rows as text lines, sorted: to say whether two results hold the same rows.
std::vector<std::string> sortedLines(const sql::SqlResult& result) {
    std::vector<std::string> lines;
    for (const auto& row : result.rows) {
        std::string line;
        for (const auto& cell : row) {
            if (const auto* i = std::get_if<int64_t>(&cell))
                line += std::to_string(*i);
            else if (const auto* d = std::get_if<double>(&cell))
                line += std::to_string(*d);
            else if (const auto* s = std::get_if<std::string>(&cell))
                line += *s;
            line += '|';
        }
        lines.push_back(std::move(line));
    }
    std::sort(lines.begin(), lines.end());
    return lines;
}

// sqlite3 on a SQLite file: the whole result of one query; false on an error (a table the
// export lacks).
bool sqliteQuery(sqlite3* db, const std::string& query, sql::SqlResult& result) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, query.c_str(), -1, &stmt, nullptr) != SQLITE_OK) return false;
    result = {};
    result.columns.resize(size_t(sqlite3_column_count(stmt)));
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        auto& cells = result.rows.emplace_back();
        for (int c = 0; c < int(result.columns.size()); ++c) cells.push_back(sql::cellOf(stmt, c));
    }
    sqlite3_finalize(stmt);
    return true;
}

}  // namespace

// lanescope-bench sql FILE [--export NSYS_EXPORT.sqlite] [--runs K]: the queries for nsys
// exports (query/ExportQueries.h) on FILE held in memory, and with --export the same queries by
// sqlite3 on nsys's own export of it, in this one process with a warm page cache. Per query:
// first_ms (Lanescope's first run, which builds the indexes it needs), lanescope_ms and
// sqlite3_ms (medians of K runs), rows, and same_rows (1 when both give the same rows).
int sqlCommand(int argc, char** argv) {
    const Args args = parseArgs(argc, argv, 2, {"export", "runs"});
    if (!args.error.empty()) return usageError(args.error);
    if (args.positional.size() != 1) return usageError("sql needs one FILE");
    const auto runs = args.options.count("runs") ? parseCount(args.options.at("runs")) : 3;
    if (!runs) return usageError("--runs needs a positive count");

    ImportOptions options;
    options.threads = std::max(1u, std::thread::hardware_concurrency());
    NullProgress progress;
    const Stopwatch importWatch;
    ImportResult imported = importFile(args.positional[0], options, progress);
    if (!imported.ok()) {
        std::fprintf(stderr, "%s\n", imported.error().message.c_str());
        return kExitBadInput;
    }
    const Report& report = *imported.report();
    printValue("import_s", importWatch.seconds(), 3);
    const Stopwatch openWatch;
    std::string error;
    auto session = sql::ReportSql::open(report, error);
    if (!session) {
        std::fprintf(stderr, "lanescope-bench: %s\n", error.c_str());
        return kExitBadInput;
    }
    printValue("sql_open_ms", openWatch.seconds() * 1000, 3);
    sqlite3* exported = nullptr;
    if (args.options.count("export")) {
        const std::string uri = "file:" + args.options.at("export") + "?immutable=1";
        if (sqlite3_open_v2(uri.c_str(), &exported, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) != SQLITE_OK) {
            std::fprintf(stderr, "lanescope-bench: cannot open %s\n", args.options.at("export").c_str());
            sqlite3_close(exported);
            return kExitBadInput;
        }
    }
    const int64_t span = report.meta.end_ns - report.meta.begin_ns;
    for (const auto& [name, query] :
         sql::exportQueries(report.meta.begin_ns + span / 3, report.meta.begin_ns + 2 * span / 3)) {
        sql::SqlResult ours, theirs;
        std::vector<double> lanescopeMs, sqliteMs;
        for (uint64_t run = 0; run <= *runs; ++run) {  // run 0: the first, timed on its own
            const Stopwatch watch;
            error = session->query(query, ours);
            lanescopeMs.push_back(watch.seconds() * 1000);
        }
        const double firstMs = lanescopeMs.front();
        lanescopeMs.erase(lanescopeMs.begin());
        bool exportHasIt = exported != nullptr;
        for (uint64_t run = 0; exportHasIt && run < *runs; ++run) {
            const Stopwatch watch;
            exportHasIt = sqliteQuery(exported, query, theirs);
            sqliteMs.push_back(watch.seconds() * 1000);
        }
        std::printf("query=%s first_ms=%.1f lanescope_ms=%.1f", name.c_str(), firstMs, median(lanescopeMs));
        if (exportHasIt)
            std::printf(" sqlite3_ms=%.1f same_rows=%d", median(sqliteMs),
                        sortedLines(ours) == sortedLines(theirs) ? 1 : 0);
        std::printf(" rows=%zu%s%s\n", ours.rows.size(), error.empty() ? "" : " error=", error.c_str());
    }
    sqlite3_close(exported);
    return kExitOk;
}

}  // namespace lanescope::bench
