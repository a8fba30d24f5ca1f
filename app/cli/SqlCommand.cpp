// lanescope-cli sql FILE [QUERY | -] [--format csv|json|table]: SQL over the report in memory
// (the tables: docs/sql.md).
#include <cstdio>
#include <iostream>
#include <iterator>

#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/SqlOutput.h"
#include "query/ReportSql.h"

namespace lanescope::cli {

int runSql(int argc, char** argv, int first) {
    const ParsedArgs args = parseArgs(argc, argv, first, {"format"});
    const std::string format = args.options.count("format") ? args.options.at("format") : "table";
    if (!args.error.empty() || args.positional.empty() || args.positional.size() > 2 ||
        (format != "csv" && format != "json" && format != "table")) {
        std::fprintf(stderr, "%s\nusage: lanescope-cli sql FILE [QUERY | -] [--format csv|json|table]\n",
                     !args.error.empty()       ? ("lanescope-cli sql: " + args.error).c_str()
                     : args.positional.empty() ? "lanescope-cli sql: no FILE"
                                               : "lanescope-cli sql: bad arguments");
        return kExitUsage;
    }
    std::string query;
    if (args.positional.size() == 2 && args.positional[1] != "-") {
        query = args.positional[1];
    } else {
        query.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    }
    auto report = loadReport(args.positional[0]);
    if (!report) return kExitBadInput;
    std::string error;
    auto session = sql::ReportSql::open(*report, error);
    if (!session) {
        std::fprintf(stderr, "lanescope-cli sql: %s\n", error.c_str());
        return kExitBadInput;
    }
    SqlOutput output(format);
    error = session->run(
        query, [&](const std::vector<std::string>& names) { output.columns(names); },
        [&](sqlite3_stmt* row) { return output.row(row); });
    const bool written = output.finish();
    if (!error.empty()) {
        std::fprintf(stderr, "lanescope-cli sql: %s\n", error.c_str());
        return kExitUsage;
    }
    return written ? kExitOk : kExitBadInput;
}

}  // namespace lanescope::cli
