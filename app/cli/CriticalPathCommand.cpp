// lanescope-cli critical-path: the critical path of a range, over one report or the ranks of one
// job (CLI.md; the definition in docs/analyses.md, "Critical path").
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "analysis/critical_path/CriticalPath.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/TextTable.h"

namespace lanescope::cli {
namespace {

constexpr const char* kCriticalPathUsage =
    "usage: lanescope-cli critical-path FILE... [--range START_NS:END_NS | --step N | --nvtx NAME]\n"
    "                                   [--what-if REGEX=FACTOR] [--format csv|json|table]\n";

std::string criticalPathTable(const std::vector<const Report*>& reports, const CriticalPath& path) {
    std::vector<std::string> header{"Start (ns)", "End (ns)", "Duration (ns)", "Category", "Name", "Lane"};
    if (path.several_ranks) header.push_back("Rank");
    std::vector<std::vector<std::string>> rows;
    const PathSegments& s = path.segments;
    for (size_t i = 0; i < s.size(); ++i) {
        std::vector<std::string> row{std::to_string(s.start_ns[i]),
                                     std::to_string(s.end_ns[i]),
                                     std::to_string(s.end_ns[i] - s.start_ns[i]),
                                     std::string(pathCategoryName(s.category[i])),
                                     std::string(segmentName(reports, path, i)),
                                     path.lane_labels[s.lane_label[i]]};
        if (path.several_ranks) row.push_back(std::to_string(s.report[i]));
        rows.push_back(std::move(row));
    }
    std::vector<bool> numeric(header.size(), false);
    numeric[0] = numeric[1] = numeric[2] = true;
    if (path.several_ranks) numeric.back() = true;
    std::string out = renderTextTable(header, rows, numeric, 60);
    out += "length " + std::to_string(path.end_ns - path.begin_ns) + " ns";
    if (path.what_if_length_ns) out += ", what if: " + std::to_string(*path.what_if_length_ns) + " ns";
    return out + "\n";
}

}  // namespace

int runCriticalPath(int argc, char** argv, int first) {
    const ParsedArgs args = parseArgs(argc, argv, first, {"range", "step", "nvtx", "what-if", "format"});
    auto usage = [](const std::string& why) {
        std::fprintf(stderr, "lanescope-cli critical-path: %s\n%s", why.c_str(), kCriticalPathUsage);
        return kExitUsage;
    };
    if (!args.error.empty()) return usage(args.error);
    if (args.positional.empty()) return usage("expected FILE");
    const std::string format = args.options.count("format") ? args.options.at("format") : "table";
    if (format != "csv" && format != "json" && format != "table") return usage("unknown --format " + format);
    const int rangeOptions =
        int(args.options.count("range")) + int(args.options.count("step")) + int(args.options.count("nvtx"));
    if (rangeOptions > 1) return usage("give one of --range, --step and --nvtx");
    CriticalPathOptions options;
    if (args.options.count("range")) {
        const auto range = parseRange(args.options.at("range"));
        if (!range) return usage("--range wants START_NS:END_NS");
        options.range = std::pair{range->begin_ns, range->end_ns};
    }
    int64_t step = -1;
    if (args.options.count("step")) {
        const std::string& text = args.options.at("step");
        char* end = nullptr;
        step = std::strtoll(text.c_str(), &end, 10);
        if (text.empty() || *end != '\0' || step < 0) return usage("--step wants a step number");
    }
    if (args.options.count("what-if")) {
        const auto rule = parseWhatIfRule(args.options.at("what-if"));
        if (!rule) return usage("--what-if wants REGEX=FACTOR, a valid regular expression and a positive factor");
        options.what_if.push_back(*rule);
    }
    const auto loaded = loadReports(args.positional);
    if (loaded.empty()) return kExitBadInput;
    std::vector<const Report*> reports;
    for (const auto& r : loaded) reports.push_back(r.get());
    const Report& firstReport = *reports[0];
    if (step >= 0 || args.options.count("nvtx")) {
        const std::optional<OwnedRange> owned =
            step >= 0 ? stepOwnedRange(firstReport, step) : nvtxOwnedRange(firstReport, args.options.at("nvtx"));
        if (!owned) {
            std::fprintf(stderr, "lanescope-cli critical-path: %s: %s\n", firstReport.meta.source_path.c_str(),
                         step >= 0 ? ("no step " + std::to_string(step)).c_str()
                                   : ("no NVTX range or annotation named " + args.options.at("nvtx")).c_str());
            return kExitBadInput;
        }
        options.range = std::pair{owned->begin_ns, owned->end_ns};
        options.owner_thread = owned->thread;
    }
    CriticalPath path;
    try {
        path = computeCriticalPath(reports, options);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "lanescope-cli critical-path: %s: %s\n", firstReport.meta.source_path.c_str(), e.what());
        return kExitBadInput;
    }
    for (const std::string& note : path.notes) std::fprintf(stderr, "lanescope-cli critical-path: %s\n", note.c_str());
    std::string out;
    if (format == "csv")
        out = criticalPathCsv(reports, path);
    else if (format == "json")
        out = criticalPathJson(reports, path);
    else
        out = criticalPathTable(reports, path);
    return writeOut(out) ? kExitOk : kExitBadInput;
}

}  // namespace lanescope::cli
