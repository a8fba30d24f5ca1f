// lanescope-bench critical-path: the critical path of a report's whole span (docs/analyses.md,
// "Critical path"; the budget: under 1 s for a 1 M-event step).
#include <vector>

#include "analysis/critical_path/CriticalPath.h"
#include "tests/bench/Args.h"
#include "tests/bench/BenchInput.h"
#include "tests/bench/Commands.h"
#include "tests/bench/Measure.h"

namespace lanescope::bench {

// lanescope-bench critical-path [--events N | FILE] [--runs K]
int criticalPathCommand(int argc, char** argv) {
    const Args args = parseArgs(argc, argv, 2, {"events", "runs"});
    if (!args.error.empty()) return usageError(args.error);
    const auto runs = args.options.count("runs") ? parseCount(args.options.at("runs")) : 5;
    if (!runs) return usageError("--runs needs a positive count");
    const BenchInput input = loadBenchInput(args);
    if (!input.report) return input.exit_code;
    const std::vector<const Report*> reports{input.report.get()};
    std::vector<double> ms, whatIfMs;
    size_t segments = 0;
    for (uint64_t run = 0; run < *runs; ++run) {
        {
            const Stopwatch watch;
            segments = computeCriticalPath(reports, {}).segments.size();
            ms.push_back(watch.seconds() * 1000.0);
        }
        CriticalPathOptions options;
        options.what_if = {{"[Kk]ernel", 2.0}};
        const Stopwatch watch;
        computeCriticalPath(reports, options);
        whatIfMs.push_back(watch.seconds() * 1000.0);
    }
    printValue("events", uint64_t(finishedCounts(*input.report).slices));
    printValue("critical_path_segments", uint64_t(segments));
    printValue("critical_path_ms", median(ms), 2);
    printValue("critical_path_what_if_ms", median(whatIfMs), 2);
    return kExitOk;
}

}  // namespace lanescope::bench
