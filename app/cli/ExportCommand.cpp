// lanescope-cli export FILE --to perfetto --out OUT.pftrace [--no-display-annotations]
// (the format: docs/perfetto-export.md)
#include <cstdio>

#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "exporters/perfetto/PerfettoWriter.h"

namespace lanescope::cli {

int runExport(int argc, char** argv, int first) {
    const ParsedArgs args = parseArgs(argc, argv, first, {"to", "out"}, {"no-display-annotations"});
    const std::string to = args.options.count("to") ? args.options.at("to") : "";
    const std::string out = args.options.count("out") ? args.options.at("out") : "";
    if (!args.error.empty() || args.positional.size() != 1 || to != "perfetto" || out.empty()) {
        std::fprintf(
            stderr, "%s\nusage: lanescope-cli export FILE --to perfetto --out OUT.pftrace [--no-display-annotations]\n",
            args.error.empty() ? "lanescope-cli export: bad arguments"
                               : ("lanescope-cli export: " + args.error).c_str());
        return kExitUsage;
    }
    auto report = loadReport(args.positional[0]);
    if (!report) return kExitBadInput;
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
