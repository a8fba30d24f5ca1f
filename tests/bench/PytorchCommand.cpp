// lanescope-bench pytorch: the PyTorch views on a trace (docs/performance.md).
#include <vector>

#include "analysis/pytorch/KernelsView.h"
#include "analysis/pytorch/MemoryView.h"
#include "analysis/pytorch/ModulesView.h"
#include "analysis/pytorch/OperatorShapes.h"
#include "analysis/pytorch/OperatorStacks.h"
#include "analysis/pytorch/Operators.h"
#include "analysis/pytorch/PytorchViews.h"
#include "analysis/pytorch/StepOverview.h"
#include "tests/bench/Args.h"
#include "tests/bench/BenchInput.h"
#include "tests/bench/Commands.h"
#include "tests/bench/Measure.h"

namespace lanescope::bench {
namespace {

// The rows a tab of the viewer's PyTorch panel shows (app/gui/panels/tables/StatsTableView.h).
constexpr size_t kPanelRows = 20000;

}  // namespace

// lanescope-bench pytorch FILE [--runs K]
int pytorchCommand(int argc, char** argv) {
    const Args args = parseArgs(argc, argv, 2, {"runs"});
    if (!args.error.empty()) return usageError(args.error);
    if (args.positional.size() != 1) return usageError("pytorch wants one FILE");
    const auto runs = args.options.count("runs") ? parseCount(args.options.at("runs")) : 5;
    if (!runs) return usageError("--runs needs a positive count");
    const BenchInput input = loadBenchInput(args);
    if (!input.report) return input.exit_code;
    // The first run also builds the report's correlation index (kept with the report, as the
    // viewer builds it while opening); the figure is the median of the runs after it.
    const Stopwatch first;
    const size_t rows = pytorchOperators(*input.report).rows.size();
    const double firstMs = first.seconds() * 1000.0;
    std::vector<double> ms;
    for (uint64_t run = 0; run < *runs; ++run) {
        const Stopwatch watch;
        pytorchOperators(*input.report);
        ms.push_back(watch.seconds() * 1000.0);
    }
    // The overview (its steps' spans read the correlation index built above): the median of the runs.
    std::vector<double> overviewMs;
    size_t steps = 0;
    for (uint64_t run = 0; run < *runs; ++run) {
        const Stopwatch watch;
        steps = pytorchStepOverview(*input.report).steps.rows.size();
        overviewMs.push_back(watch.seconds() * 1000.0);
    }
    printValue("events", input.report->counts().slices);
    printValue("pytorch_operator_names", uint64_t(rows));
    printValue("pytorch_operators_first_ms", firstMs, 2);
    printValue("pytorch_operators_ms", median(ms), 2);
    printValue("pytorch_overview_steps", uint64_t(steps));
    printValue("pytorch_overview_ms", median(overviewMs), 2);
    // The memory view (devices, allocations paired with their frees and operators): its first run
    // and the median of the runs; then its allocations as a table (the command line's rows).
    std::vector<double> memoryMs, memoryTableMs;
    MemoryView memory;
    for (uint64_t run = 0; run < *runs; ++run) {
        const Stopwatch watch;
        memory = pytorchMemory(*input.report);
        memoryMs.push_back(watch.seconds() * 1000.0);
    }
    size_t allocations = 0;
    for (uint64_t run = 0; run < *runs; ++run) {
        const Stopwatch watch;
        allocations = memoryAllocationsTable(*input.report, memory).rows.size();
        memoryTableMs.push_back(watch.seconds() * 1000.0);
    }
    printValue("pytorch_memory_events", uint64_t(input.report->pytorch_memory.size()));
    printValue("pytorch_memory_allocations", uint64_t(allocations));
    printValue("pytorch_memory_first_ms", memoryMs.front(), 2);
    printValue("pytorch_memory_ms", median(memoryMs), 2);
    printValue("pytorch_memory_table_ms", median(memoryTableMs), 2);
    // The memory tab of the viewer's PyTorch panel: the view with the rows it shows.
    std::vector<double> panelMs;
    for (uint64_t run = 0; run < *runs; ++run) {
        const Stopwatch watch;
        findPytorchView("memory")->compute(*input.report, kPanelRows);
        panelMs.push_back(watch.seconds() * 1000.0);
    }
    printValue("pytorch_memory_panel_ms", median(panelMs), 2);
    // The kernels view, the modules view and the operators by call stack and by input shapes: the
    // median of the runs of each.
    auto timeView = [&](const char* rowsKey, const char* msKey, auto&& view) {
        size_t viewRows = 0;
        ms.clear();
        for (uint64_t run = 0; run < *runs; ++run) {
            const Stopwatch watch;
            viewRows = view().table.rows.size();
            ms.push_back(watch.seconds() * 1000.0);
        }
        printValue(rowsKey, uint64_t(viewRows));
        printValue(msKey, median(ms), 2);
    };
    timeView("pytorch_kernel_names", "pytorch_kernels_ms", [&] { return pytorchKernels(*input.report); });
    timeView("pytorch_module_paths", "pytorch_modules_ms", [&] { return pytorchModules(*input.report); });
    timeView("pytorch_operator_stack_rows", "pytorch_operator_stacks_ms",
             [&] { return pytorchOperatorStacks(*input.report); });
    timeView("pytorch_operator_shape_rows", "pytorch_operator_shapes_ms",
             [&] { return pytorchOperatorShapes(*input.report); });
    return kExitOk;
}

}  // namespace lanescope::bench
