// lanescope-cli summarize: the per-rank summary that compare reads in place of the full report
// (CLI.md; the folder's files: docs/rank-summary.md).
#include <cstdio>

#include "analysis/ranks/RankSummary.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"

namespace lanescope::cli {
namespace {

constexpr const char* kUsage =
    "usage: lanescope-cli summarize FILE --out DIR\n"
    "  writes the rank summary of FILE into DIR (rank-summary.json and nsys stats tables as CSV):\n"
    "  what `lanescope-cli compare DIR ...` needs of this rank, without the full report\n";

}  // namespace

int runSummarize(int argc, char** argv, int first) {
    const ParsedArgs args = parseArgs(argc, argv, first, {"out"});
    auto usage = [](const std::string& why) {
        std::fprintf(stderr, "lanescope-cli summarize: %s\n%s", why.c_str(), kUsage);
        return kExitUsage;
    };
    if (!args.error.empty()) return usage(args.error);
    if (args.positional.size() != 1) return usage("expected one FILE");
    if (!args.options.count("out") || args.options.at("out").empty()) return usage("--out DIR is required");
    const auto report = loadReport(args.positional[0]);
    if (!report) return kExitBadInput;
    const std::string error = writeRankSummary(*report, args.options.at("out"));
    if (!error.empty()) {
        std::fprintf(stderr, "lanescope-cli: %s\n", error.c_str());
        return kExitBadInput;
    }
    return kExitOk;
}

}  // namespace lanescope::cli
