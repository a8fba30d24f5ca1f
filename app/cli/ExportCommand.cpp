// lanescope-cli export FILE --to perfetto --out OUT.pftrace [--no-display-annotations]
// (the format: docs/perfetto-export.md), and
// lanescope-cli export FILE --to sqlite --out OUT.sqlite [--force] [--with-lanescope-tables] (the tables:
// docs/sql.md)
#include <cstdio>
#include <filesystem>

#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "exporters/perfetto/PerfettoWriter.h"
#include "query/SqliteExport.h"

namespace lanescope::cli {

namespace {

int exportSqlite(const Report& report, const std::string& out, const sql::SqliteExportOptions& options) {
    std::string error;
    auto session = sql::ReportSql::open(report, error);
    sql::SqliteExportStats stats;
    if (session) error = sql::exportSqlite(*session, report, out, options, &stats);
    if (!error.empty()) {
        std::fprintf(stderr, "lanescope-cli export: %s\n", error.c_str());
        return kExitBadInput;
    }
    std::fprintf(stderr, "wrote %s: %llu tables, %llu rows\n", out.c_str(),
                 static_cast<unsigned long long>(stats.tables), static_cast<unsigned long long>(stats.rows));
    return kExitOk;
}

}  // namespace

int runExport(int argc, char** argv, int first) {
    const ParsedArgs args =
        parseArgs(argc, argv, first, {"to", "out"}, {"no-display-annotations", "force", "with-lanescope-tables"});
    const std::string to = args.options.count("to") ? args.options.at("to") : "";
    const std::string out = args.options.count("out") ? args.options.at("out") : "";
    if (!args.error.empty() || args.positional.size() != 1 || (to != "perfetto" && to != "sqlite") || out.empty()) {
        std::fprintf(
            stderr,
            "%s\nusage: lanescope-cli export FILE --to perfetto --out OUT.pftrace [--no-display-annotations]\n"
            "       lanescope-cli export FILE --to sqlite --out OUT.sqlite [--force] [--with-lanescope-tables]\n",
            args.error.empty() ? "lanescope-cli export: bad arguments"
                               : ("lanescope-cli export: " + args.error).c_str());
        return kExitUsage;
    }
    // Refused before the import, which may take long: an existing file without --force.
    if (to == "sqlite" && !args.options.count("force") && std::filesystem::exists(out)) {
        std::fprintf(stderr, "lanescope-cli export: %s exists (use --force to replace it)\n", out.c_str());
        return kExitBadInput;
    }
    auto report = loadReport(args.positional[0]);
    if (!report) return kExitBadInput;
    if (to == "sqlite") {
        sql::SqliteExportOptions options;
        options.overwrite = args.options.count("force") > 0;
        options.lanescope_tables = args.options.count("with-lanescope-tables") > 0;
        return exportSqlite(*report, out, options);
    }
    std::string error;
    PerfettoWriteStats stats;
    PerfettoWriteOptions options;
    options.display_annotations = args.options.count("no-display-annotations") == 0;
    if (!writePerfetto(*report, out, error, &stats, options)) {
        std::fprintf(stderr, "lanescope-cli export: %s\n", error.c_str());
        return kExitBadInput;
    }
    std::fprintf(
        stderr, "wrote %s: %llu packets, %llu tracks, %llu slices, %llu instants, %llu counter samples, %llu flows\n",
        out.c_str(), static_cast<unsigned long long>(stats.packets), static_cast<unsigned long long>(stats.tracks),
        static_cast<unsigned long long>(stats.slices), static_cast<unsigned long long>(stats.instants),
        static_cast<unsigned long long>(stats.counter_samples), static_cast<unsigned long long>(stats.flows));
    return kExitOk;
}

}  // namespace lanescope::cli
