// lanescope-cli compare: the reports of several ranks aligned and compared (CLI.md).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>

#include "analysis/JsonWriter.h"
#include "analysis/ranks/RankCompare.h"
#include "analysis/ranks/RankSpread.h"
#include "analysis/ranks/RankSummary.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/TextTable.h"

namespace lanescope::cli {
namespace {

constexpr const char* kUsage =
    "usage: lanescope-cli compare FILE|SUMMARY_DIR ... [--align clock|nccl|mpi|none] [--nudge US,US,...] "
    "[--format json|table]\n"
    "  one report per rank, or the folder `lanescope-cli summarize` wrote of it (mixed freely; the same\n"
    "  comparison either way); --align nccl lines up matched NCCL collectives, mpi matched MPI\n"
    "  collectives (MPI_Allreduce, MPI_Barrier, ...), clock uses each report's session start (UTC),\n"
    "  none leaves each at its own zero; the default is nccl when every rank has NCCL collectives,\n"
    "  else mpi when every rank has MPI ones, else clock;\n"
    "  --nudge moves each rank by hand on top of that, in microseconds, in FILE order (as the Ranks panel)\n";

constexpr int64_t kMissing = std::numeric_limits<int64_t>::min();

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

void stragglerJson(JsonWriter& j, const RankComparison& c) {
    const Straggler& s = c.straggler;
    if (s.report < 0) {
        j.raw("straggler", "null");
        return;
    }
    j.beginObject("straggler");
    j.value("report", s.report);
    j.value("label", c.ranks[size_t(s.report)].label);
    j.value("basis", s.basis);
    j.value("caused_wait_ns", s.caused_wait_ns);
    j.value("times_last", uint64_t{s.times_last});
    j.value("contested_collectives", uint64_t{s.collectives});
    j.value("excess_ns", s.excess_ns);
    j.endObject();
}

void skewJson(JsonWriter& j, std::string_view key, const SkewPercentiles& p) {
    j.beginObject(key);
    j.value("count", p.count);
    j.value("p50", p.p50_ns);
    j.value("p90", p.p90_ns);
    j.value("p99", p.p99_ns);
    j.value("max", p.max_ns);
    j.endObject();
}

// The job at a glance (many ranks): slowest and fastest rank per step, skew percentiles.
void spreadJson(JsonWriter& j, const RankComparison& c, const RankSpread& spread) {
    j.beginObject("summary");
    skewJson(j, "step_end_skew_ns", spread.step_end_skew);
    skewJson(j, "arrival_skew_ns", spread.arrival_skew);
    j.beginArray("steps");
    for (const StepSpread& s : spread.steps) {
        j.beginObject();
        j.value("number", s.number);
        j.value("ranks", uint64_t{s.ranks});
        j.value("slowest", s.slowest);
        j.value("slowest_label", c.ranks[size_t(s.slowest)].label);
        j.value("slowest_ns", s.slowest_ns);
        j.value("fastest", s.fastest);
        j.value("fastest_label", c.ranks[size_t(s.fastest)].label);
        j.value("fastest_ns", s.fastest_ns);
        j.value("end_skew_ns", s.end_skew_ns);
        j.endObject();
    }
    j.endArray();
    j.endObject();
}

std::string toJson(const std::vector<RankInput>& inputs, const RankComparison& c) {
    const RankAlignment& a = c.alignment;
    JsonWriter j;
    j.beginObject();
    j.value("align", alignModeName(a.mode));
    j.value("collectives_from", c.collectives_from);
    j.beginArray("files");
    for (const RankInput& in : inputs) j.value("", in.source_path);
    j.endArray();
    j.beginArray("offsets_ns");
    for (int64_t o : a.offsets_ns) j.value("", o);
    j.endArray();
    j.value("reference", a.reference);
    j.beginArray("residual_skew_median_ns");
    for (int64_t v : a.residual_median_ns) j.value("", v);
    j.endArray();
    j.beginArray("residual_skew_max_ns");
    for (int64_t v : a.residual_max_ns) j.value("", v);
    j.endArray();
    j.beginArray("notes");
    for (const auto& n : a.notes) j.value("", n);
    j.endArray();

    j.beginArray("ranks");
    for (size_t i = 0; i < c.ranks.size(); ++i) {
        const RankMetrics& m = c.ranks[i];
        j.beginObject();
        j.value("file", inputs[i].file_name);
        j.value("label", m.label);
        j.value("rank", m.rank);
        j.value("rank_from", inputs[i].rank_from);
        j.value("offset_ns", m.offset_ns);
        j.beginObject("steps");
        j.value("count", m.step_ns.count);
        j.value("total_ns", m.step_ns.total);
        j.value("mean_ns", m.step_ns.mean, 1);
        j.value("median_ns", m.step_ns.median, 1);
        j.value("min_ns", m.step_ns.min);
        j.value("max_ns", m.step_ns.max);
        j.beginArray("durations_ns");
        for (const StepRange& s : m.steps) j.value("", s.end_ns - s.start_ns);
        j.endArray();
        j.endObject();
        const GpuShares& g = m.shares;
        j.beginObject("gpu");
        j.value("window_ns", g.window_ns);
        j.value("compute_ns", g.compute_ns);
        j.value("communication_ns", g.communication_ns);
        j.value("overlap_ns", g.overlap_ns);
        j.value("idle_ns", g.idle_ns);
        j.value("compute_share", g.share(g.compute_ns), 4);
        j.value("communication_share", g.share(g.communication_ns), 4);
        j.value("idle_share", g.share(g.idle_ns), 4);
        j.value("communication_hidden_share", g.hiddenCommunication(), 4);
        j.endObject();
        j.value("wait_ns", m.wait_ns);
        j.value("caused_wait_ns", m.caused_wait_ns);
        j.value("times_last", uint64_t{m.times_last});
        j.beginObject("collectives");
        for (const auto& [kind, t] : m.collectives) {
            j.beginObject(kind);
            j.value("count", uint64_t{t.count});
            j.value("kernel_ns", t.kernel_ns);
            j.value("wait_ns", t.wait_ns);
            j.endObject();
        }
        j.endObject();
        j.value("point_to_point_ns", m.point_to_point_ns);
        j.beginObject("point_to_point");
        for (const auto& [name, t] : m.point_to_point) {
            j.beginObject(name);
            j.value("count", uint64_t{t.count});
            j.value("blocked_ns", t.blocked_ns);
            j.endObject();
        }
        j.endObject();
        j.endObject();
    }
    j.endArray();

    j.beginArray("collectives");
    for (const MatchedCollective& mc : c.collectives) {
        j.beginObject();
        j.value("name", mc.kind);
        j.value("ordinal", uint64_t{mc.ordinal});
        j.value("present", mc.present);
        j.value("last", mc.last);
        auto times = [&j](const char* key, const std::vector<int64_t>& v) {
            j.beginArray(key);
            for (int64_t t : v) t == kMissing ? j.raw("", "null") : j.value("", t);
            j.endArray();
        };
        times("arrival_ns", mc.arrival_ns);
        times("end_ns", mc.end_ns);
        times("wait_ns", mc.wait_ns);
        j.endObject();
    }
    j.endArray();
    stragglerJson(j, c);
    spreadJson(j, c, rankSpread(c));
    j.endObject();
    return j.str();
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

// What each argument gives: a summary folder read back, or a report imported (all reports
// together, in parallel) and reduced to its RankInput. Empty after printing the one-line
// reason when one cannot be read.
std::vector<RankInput> loadInputs(const std::vector<std::string>& args) {
    std::vector<RankInput> inputs(args.size());
    std::vector<std::string> files;
    std::vector<size_t> fileAt;
    for (size_t i = 0; i < args.size(); ++i) {
        if (!isRankSummary(args[i])) {
            files.push_back(args[i]);
            fileAt.push_back(i);
            continue;
        }
        std::string error;
        std::optional<RankInput> in = readRankSummary(args[i], error);
        if (!in) {
            std::fprintf(stderr, "lanescope-cli: %s\n", error.c_str());
            return {};
        }
        inputs[i] = std::move(*in);
    }
    if (files.empty()) return inputs;
    const auto reports = loadReports(files);
    if (reports.empty()) return {};
    std::vector<const Report*> raw;
    for (const auto& r : reports) raw.push_back(r.get());
    std::vector<RankInput> extracted = extractRankInputs(raw);
    for (size_t k = 0; k < fileAt.size(); ++k) inputs[fileAt[k]] = std::move(extracted[k]);
    return inputs;
}

}  // namespace

int runCompare(int argc, char** argv, int first) {
    const ParsedArgs args = parseArgs(argc, argv, first, {"align", "nudge", "format"});
    auto usage = [](const std::string& why) {
        std::fprintf(stderr, "lanescope-cli compare: %s\n%s", why.c_str(), kUsage);
        return kExitUsage;
    };
    if (!args.error.empty()) return usage(args.error);
    if (args.positional.size() < 2) return usage("expected two FILEs or SUMMARY_DIRs or more");
    const std::string format = args.options.count("format") ? args.options.at("format") : "table";
    if (format != "json" && format != "table") return usage("unknown --format " + format);
    const auto mode = parseAlignMode(args.options.count("align") ? args.options.at("align") : "auto");
    if (!mode) return usage("unknown --align " + args.options.at("align"));
    const auto nudges = args.options.count("nudge") ? parseNudges(args.options.at("nudge")) : std::vector<int64_t>{};
    if (!nudges) return usage("--nudge takes microseconds per rank, comma-separated: " + args.options.at("nudge"));
    if (nudges->size() > args.positional.size()) return usage("more --nudge values than FILEs");

    const std::vector<RankInput> inputs = loadInputs(args.positional);
    if (inputs.empty()) return kExitBadInput;
    const RankComparison comparison = compareRankInputs(inputs, *mode, *nudges);  // as the viewer's Ranks panel
    return writeOut(format == "json" ? toJson(inputs, comparison) : toTable(inputs, comparison)) ? kExitOk
                                                                                                 : kExitBadInput;
}

}  // namespace lanescope::cli
