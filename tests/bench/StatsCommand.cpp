#include <cstdio>
#include <exception>
#include <filesystem>
#include <optional>

#include "analysis/GpuGaps.h"
#include "analysis/Registry.h"
#include "importers/Importer.h"
#include "tests/bench/Args.h"
#include "tests/bench/BenchInput.h"
#include "tests/bench/Commands.h"
#include "tests/bench/Measure.h"

namespace lanescope::bench {
namespace {

// Milliseconds to compute every statistics report over `range`, as the statistics panel
// does (the six reports shared by two threads).
double timeAllReports(const Report& report, TimeRange range) {
    const Stopwatch watch;
    computeAllStats(report, range, 2);
    return watch.seconds() * 1000.0;
}

}  // namespace

// lanescope-bench stats [--events N | FILE] [--runs K]
int statsCommand(int argc, char** argv) {
    const Args args = parseArgs(argc, argv, 2, {"events", "runs"});
    if (!args.error.empty()) return usageError(args.error);
    const auto runs = args.options.count("runs") ? parseCount(args.options.at("runs")) : 5;
    if (!runs) return usageError("--runs needs a positive count");

    const BenchInput input = loadBenchInput(args);
    if (!input.report) return input.exit_code;
    const Report& report = *input.report;
    // The middle tenth of the trace: [begin + 45%, begin + 55%) of its span.
    const int64_t span = report.meta.end_ns - report.meta.begin_ns;
    const TimeRange middle{report.meta.begin_ns + span / 100 * 45, report.meta.begin_ns + span / 100 * 55};
    std::vector<double> wholeMs, rangeMs, gapsMs;
    size_t gaps = 0;
    for (uint64_t run = 0; run < *runs; ++run) {
        wholeMs.push_back(timeAllReports(report, TimeRange::all()));
        rangeMs.push_back(timeAllReports(report, middle));
        // Gaps over 1 ms ("bubbles") with their causes, all rows.
        const Stopwatch watch;
        gaps = findGpuGaps(report, GapOptions{1.0, -1, TimeRange::all()}).size();
        gapsMs.push_back(watch.seconds() * 1000.0);
    }
    printValue("events", report.counts().slices);
    printValue("stats_whole_ms", median(wholeMs), 2);
    printValue("stats_range_ms", median(rangeMs), 2);
    printValue("gaps", uint64_t(gaps));
    printValue("gaps_ms", median(gapsMs), 2);
    return kExitOk;
}

}  // namespace lanescope::bench
