#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iterator>
#include <optional>
#include <string_view>
#include <thread>

#include "analysis/GpuGaps.h"
#include "analysis/NvtxProjection.h"
#include "analysis/Registry.h"
#include "importers/Importer.h"
#include "model/Correlation.h"
#include "tests/bench/Args.h"
#include "tests/bench/BenchInput.h"
#include "tests/bench/Commands.h"
#include "tests/bench/Measure.h"

namespace lanescope::bench {
namespace {

// The reports `nsys stats` prints when given none (its --help lists the default set; 2022.4's
// names, renamed since), those Lanescope computes: what "the statistics of a report" means to
// its users.
bool inNsysDefaultSet(const StatsReportEntry& e) {
    static constexpr std::string_view kDefault[] = {"nvtx_sum",
                                                    "osrt_sum",
                                                    "cuda_api_sum",
                                                    "cuda_gpu_kern_sum",
                                                    "cuda_gpu_mem_time_sum",
                                                    "cuda_gpu_mem_size_sum",
                                                    "openmp_sum",
                                                    "um_sum",
                                                    "um_total_sum",
                                                    "um_cpu_page_faults_sum",
                                                    "openacc_sum"};
    return std::find(std::begin(kDefault), std::end(kDefault), e.name) != std::end(kDefault);
}

// Milliseconds to compute, on two threads over `range`, the reports `chosen` picks: every
// summary report (`*_sum`: the statistics), the nsys default set, or every trace report
// (`*_trace`: one row per event, as the Events panel lists them). Each table is dropped as
// soon as it is made.
double timeReports(const Report& report, TimeRange range, bool (*chosen)(const StatsReportEntry&)) {
    std::vector<const StatsReportEntry*> reports;
    for (const StatsReportEntry& e : statsReports())
        if (chosen(e)) reports.push_back(&e);
    const Stopwatch watch;
    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t i; (i = next.fetch_add(1)) < reports.size();) reports[i]->compute(report, range, {});
    };
    {
        std::jthread other(work);
        work();
    }
    return watch.seconds() * 1000.0;
}

bool isTraceReport(const StatsReportEntry& e) { return !isSummaryReport(e); }

// Each summary report over the whole trace, alone on one thread (printed as
// stats_ms_<name>=), and the slowest: its name and ms.
std::pair<std::string_view, double> slowestSummary(const Report& report) {
    std::pair<std::string_view, double> slowest{"", 0.0};
    for (const StatsReportEntry& e : statsReports()) {
        if (!isSummaryReport(e)) continue;
        const Stopwatch watch;
        e.compute(report, TimeRange::all(), {});
        const double ms = watch.seconds() * 1000.0;
        printValue(("stats_ms_" + std::string(e.name)).c_str(), ms, 2);
        if (ms > slowest.second) slowest = {e.name, ms};
    }
    return slowest;
}

}  // namespace

// lanescope-bench stats [--events N | FILE] [--runs K] [--set default|all]
int statsCommand(int argc, char** argv) {
    const Args args = parseArgs(argc, argv, 2, {"events", "runs", "set"});
    if (!args.error.empty()) return usageError(args.error);
    const std::string set = args.options.count("set") ? args.options.at("set") : "all";
    if (set != "default" && set != "all") return usageError("--set takes default or all");
    const auto runs = args.options.count("runs") ? parseCount(args.options.at("runs")) : 5;
    if (!runs) return usageError("--runs needs a positive count");

    const BenchInput input = loadBenchInput(args);
    if (!input.report) return input.exit_code;
    const Report& report = *input.report;
    // The middle tenth of the trace: [begin + 45%, begin + 55%) of its span.
    const int64_t span = report.meta.end_ns - report.meta.begin_ns;
    const TimeRange middle{report.meta.begin_ns + span / 100 * 45, report.meta.begin_ns + span / 100 * 55};
    std::vector<double> defaultMs, defaultCores, defaultRangeMs, gapsMs;
    size_t gaps = 0;
    for (uint64_t run = 0; run < *runs; ++run) {
        const double cpu = processCpuNow();
        defaultMs.push_back(timeReports(report, TimeRange::all(), inNsysDefaultSet));
        defaultCores.push_back((processCpuNow() - cpu) * 1000.0 / defaultMs.back());
        defaultRangeMs.push_back(timeReports(report, middle, inNsysDefaultSet));
        // Gaps over 1 ms ("bubbles") with their causes, all rows.
        const Stopwatch watch;
        gaps = findGpuGaps(report, GapOptions{1.0, -1, TimeRange::all()}).size();
        gapsMs.push_back(watch.seconds() * 1000.0);
    }
    printValue("events", report.counts().slices);
    printValue("stats_default_ms", median(defaultMs), 2);
    printValue("stats_default_cores", median(defaultCores), 2);  // CPU time over wall time
    printValue("stats_default_range_ms", median(defaultRangeMs), 2);
    printValue("gaps", uint64_t(gaps));
    printValue("gaps_ms", median(gapsMs), 2);
    if (set == "default") return kExitOk;

    // The correlation index is built once per report and kept (as the viewer does while
    // opening); NVTX on the GPU is projected by each report that reads it: one projection's time.
    correlationIndex(report);
    const Stopwatch projection;
    (void)projectNvtxToGpu(report);
    printValue("nvtx_projection_ms", projection.seconds() * 1000.0, 2);
    std::vector<double> wholeMs, rangeMs;
    for (uint64_t run = 0; run < *runs; ++run) {
        wholeMs.push_back(timeReports(report, TimeRange::all(), isSummaryReport));
        rangeMs.push_back(timeReports(report, middle, isSummaryReport));
    }
    printValue("stats_whole_ms", median(wholeMs), 2);
    printValue("stats_range_ms", median(rangeMs), 2);
    const auto [slowest, slowestMs] = slowestSummary(report);
    std::printf("stats_slowest_report=%.*s\n", int(slowest.size()), slowest.data());
    printValue("stats_slowest_ms", slowestMs, 2);
    printValue("stats_traces_ms", timeReports(report, TimeRange::all(), isTraceReport), 2);
    // Last, as it adds lanes to the report: the viewer's "NVTX on GPU" rows, on every core.
    const Stopwatch lanes;
    addNvtxProjectionLanes(*input.report, std::max(1u, std::thread::hardware_concurrency()));
    printValue("nvtx_projection_lanes_ms", lanes.seconds() * 1000.0, 2);
    return kExitOk;
}

}  // namespace lanescope::bench
