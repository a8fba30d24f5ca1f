// lanescope-cli compare: the reports of several ranks aligned and compared (CLI.md).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "analysis/ranks/RankCompare.h"
#include "analysis/ranks/RankSpread.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/CompareJson.h"
#include "app/cli/RankInputs.h"
#include "app/cli/TextTable.h"

namespace lanescope::cli {
namespace {

constexpr const char* kUsage =
    "usage: lanescope-cli compare FILE|SUMMARY_DIR ... [--align clock|nccl|mpi|none] [--nudge US,US,...] "
    "[--format json|table]\n"
    "  one report per rank, or the folder `lanescope-cli summarize` wrote of it (mixed freely; the same\n"
    "  comparison either way); a report holding several ranks (processes with GPU work of their own,\n"
    "  as `nsys profile torchrun ...` records them) gives one per process; --align nccl lines up\n"
    "  matched NCCL collectives, mpi matched MPI collectives (MPI_Allreduce, MPI_Barrier, ...), clock\n"
    "  uses each report's session start (UTC), none leaves each at its own zero; the default is nccl\n"
    "  when every rank has NCCL collectives, else mpi when every rank has MPI ones, else clock;\n"
    "  --nudge moves each rank by hand on top of that, in microseconds, in FILE order (as the Ranks panel)\n";

// "US,US,..." in microseconds to ns per rank; nullopt when a part is not a number.
std::optional<std::vector<int64_t>> parseNudges(const std::string& text) {
    std::vector<int64_t> out;
    size_t at = 0;
    while (at <= text.size()) {
        const size_t comma = std::min(text.find(',', at), text.size());
        const std::string part = text.substr(at, comma - at);
        char* end = nullptr;
        const double us = std::strtod(part.c_str(), &end);
        if (part.empty() || end != part.c_str() + part.size() || !std::isfinite(us) || std::abs(us) > 1e12)
            return std::nullopt;
        out.push_back(static_cast<int64_t>(std::llround(us * 1e3)));
        at = comma + 1;
    }
    return out;
}

std::string ms(int64_t ns) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", double(ns) / 1e6);
    return buf;
}

std::string percent(double share) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", share * 100);
    return buf;
}

std::string skewLine(const char* what, const SkewPercentiles& p) {
    if (p.count == 0) return std::string(what) + ": -\n";
    return std::string(what) + " (ms, " + std::to_string(p.count) + "): p50 " + ms(p.p50_ns) + ", p90 " + ms(p.p90_ns) +
           ", p99 " + ms(p.p99_ns) + ", max " + ms(p.max_ns) + "\n";
}

std::string spreadTable(const RankComparison& c, const RankSpread& spread) {
    std::string out = "\nAcross ranks\n" + skewLine("Step-end skew", spread.step_end_skew) +
                      skewLine("Collective arrival skew", spread.arrival_skew);
    std::vector<std::vector<std::string>> rows;
    for (const StepSpread& s : spread.steps)
        rows.push_back({std::to_string(s.number), std::to_string(s.ranks), c.ranks[size_t(s.slowest)].label,
                        ms(s.slowest_ns), c.ranks[size_t(s.fastest)].label, ms(s.fastest_ns), ms(s.end_skew_ns)});
    if (!rows.empty())
        out += renderTextTable({"Step", "Ranks", "Slowest", "Slowest (ms)", "Fastest", "Fastest (ms)", "End skew (ms)"},
                               rows, {true, true, false, true, false, true, true}, 40);
    return out;
}

std::string toTable(const std::vector<RankInput>& inputs, const RankComparison& c) {
    const RankAlignment& a = c.alignment;
    std::string out = std::string("Alignment: ") + alignModeName(a.mode) + "\n";
    std::vector<std::vector<std::string>> rows;
    for (size_t i = 0; i < inputs.size(); ++i) {
        const RankMetrics& m = c.ranks[i];
        rows.push_back({m.label, inputs[i].file_name, ms(m.offset_ns),
                        a.residual_median_ns[i] < 0 ? "-" : ms(a.residual_median_ns[i]),
                        a.residual_max_ns[i] < 0 ? "-" : ms(a.residual_max_ns[i])});
    }
    out += renderTextTable({"Rank", "File", "Offset (ms)", "Skew med (ms)", "Skew max (ms)"}, rows,
                           {false, false, true, true, true}, 60);
    for (const auto& n : a.notes) out += "note: " + n + "\n";

    out += "\nRanks\n";
    rows.clear();
    for (const RankMetrics& m : c.ranks) {
        const GpuShares& g = m.shares;
        rows.push_back({m.label, std::to_string(m.step_ns.count), m.step_ns.count ? ms(int64_t(m.step_ns.mean)) : "-",
                        percent(g.share(g.compute_ns)), percent(g.share(g.communication_ns)),
                        percent(g.share(g.idle_ns)), percent(g.hiddenCommunication()), ms(m.wait_ns),
                        ms(m.caused_wait_ns), std::to_string(m.times_last), ms(m.point_to_point_ns)});
    }
    out += renderTextTable({"Rank", "Steps", "Step avg (ms)", "Compute %", "Comm %", "Idle %", "Comm hidden %",
                            "Waited (ms)", "Made wait (ms)", "Last", "P2P (ms)"},
                           rows, {false, true, true, true, true, true, true, true, true, true, true}, 40);

    const bool mpi = c.collectives_from == "mpi";
    out += mpi ? "\nMPI collectives by kind\n" : "\nNCCL collectives by kind\n";
    rows.clear();
    for (const RankMetrics& m : c.ranks)
        for (const auto& [kind, t] : m.collectives)
            rows.push_back({m.label, kind, std::to_string(t.count), ms(t.kernel_ns), ms(t.wait_ns)});
    out += rows.empty()
               ? "  (none)\n"
               : renderTextTable({"Rank", "Collective", "Count", mpi ? "In call (ms)" : "Kernel (ms)", "Waited (ms)"},
                                 rows, {false, false, true, true, true}, 40);

    rows.clear();
    for (const RankMetrics& m : c.ranks)
        for (const auto& [name, t] : m.point_to_point)
            rows.push_back({m.label, name, std::to_string(t.count), ms(t.blocked_ns)});
    if (!rows.empty())
        out += "\nMPI point-to-point (per call; the reports record no peers)\n" +
               renderTextTable({"Rank", "Call", "Count", "Blocked (ms)"}, rows, {false, false, true, true}, 40);

    const Straggler& s = c.straggler;
    if (s.report < 0) {
        out += "\nStraggler: none found (needs two ranks with matched NCCL or MPI collectives, or steps)\n";
    } else if (s.basis == "collectives") {
        out += "\nStraggler: " + c.ranks[size_t(s.report)].label + ", last to arrive in " +
               std::to_string(s.times_last) + " of " + std::to_string(s.collectives) +
               " matched collectives; the others waited " + ms(s.caused_wait_ns) + " ms for it (" + ms(s.excess_ns) +
               " ms more than for the next rank)\n";
    } else {
        out += "\nStraggler: " + c.ranks[size_t(s.report)].label + ", the longest mean step (" + ms(s.excess_ns) +
               " ms longer than the next rank); no matched collectives to measure waits\n";
    }
    return out + spreadTable(c, rankSpread(c));
}

}  // namespace

int runCompare(int argc, char** argv, int first) {
    const ParsedArgs args = parseArgs(argc, argv, first, {"align", "nudge", "format"});
    auto usage = [](const std::string& why) {
        std::fprintf(stderr, "lanescope-cli compare: %s\n%s", why.c_str(), kUsage);
        return kExitUsage;
    };
    if (!args.error.empty()) return usage(args.error);
    if (args.positional.empty())
        return usage("expected two FILEs or SUMMARY_DIRs or more, or one FILE of several ranks");
    const std::string format = args.options.count("format") ? args.options.at("format") : "table";
    if (format != "json" && format != "table") return usage("unknown --format " + format);
    const auto mode = parseAlignMode(args.options.count("align") ? args.options.at("align") : "auto");
    if (!mode) return usage("unknown --align " + args.options.at("align"));
    const auto nudges = args.options.count("nudge") ? parseNudges(args.options.at("nudge")) : std::vector<int64_t>{};
    if (!nudges) return usage("--nudge takes microseconds per rank, comma-separated: " + args.options.at("nudge"));

    TerminalProgress terminal;
    std::string error;
    const std::vector<RankInput> inputs = loadRankInputs(args.positional, defaultImportOptions(), terminal, error);
    if (inputs.empty()) {
        std::fprintf(stderr, "lanescope-cli: %s\n", error.c_str());
        return kExitBadInput;
    }
    if (inputs.size() < 2)
        return usage(args.positional[0] + " holds one rank: expected two FILEs or SUMMARY_DIRs or more");
    if (nudges->size() > inputs.size()) return usage("more --nudge values than ranks");
    const RankComparison comparison = compareRankInputs(inputs, *mode, *nudges);  // as the viewer's Ranks panel
    return writeOut(format == "json" ? compareJson(inputs, comparison) : toTable(inputs, comparison)) ? kExitOk
                                                                                                      : kExitBadInput;
}

}  // namespace lanescope::cli
