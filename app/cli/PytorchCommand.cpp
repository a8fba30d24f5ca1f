// lanescope-cli pytorch: the views PyTorch users know from TensorBoard's profiler (CLI.md).
#include <cstdint>
#include <cstdio>
#include <utility>

#include "analysis/pytorch/MemoryView.h"
#include "analysis/pytorch/PytorchViews.h"
#include "analysis/pytorch/StepOverview.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/PytorchMemoryOutput.h"
#include "app/cli/PytorchOverviewOutput.h"
#include "app/cli/TableOutput.h"

namespace lanescope::cli {
namespace {

constexpr const char* kUsage =
    "usage: lanescope-cli pytorch FILE --view overview|operators|kernels|memory|modules [--format csv|json|table]\n"
    "       lanescope-cli pytorch FILE --view operators --group-by name|stack|shapes [--format csv|json|table]\n"
    "  --group-by stack: one row per operator name and Python call stack (frames innermost first, joined by\n"
    "  \" <- \"; recorded with with_stack=True); shapes: one row per operator name and input shapes (Input\n"
    "  Dims, recorded with record_shapes=True); name (the default): one row per operator name\n"
    "  --view overview: one row per ProfilerStep#N, its span split into Kernel, Memcpy, Memset, Runtime,\n"
    "  DataLoader, CPU Exec and Other ns by that priority, then a summary (min, median, max, slowest step;\n"
    "  on stderr with --format csv)\n"
    "  --view memory (traces recorded with profile_memory=True): per device the peak allocated and reserved\n"
    "  bytes and the allocation and free counts, then one row per allocation with its free and operator;\n"
    "  with --format csv the allocations, the devices on stderr\n";

}  // namespace

int runPytorch(int argc, char** argv, int first) {
    const ParsedArgs args = parseArgs(argc, argv, first, {"view", "format", "group-by"});
    const std::string format = args.options.count("format") ? args.options.at("format") : "table";
    auto usage = [&](const std::string& why) {
        std::fprintf(stderr, "lanescope-cli pytorch: %s\n%s", why.c_str(), kUsage);
        return kExitUsage;
    };
    if (!args.error.empty()) return usage(args.error);
    if (args.positional.size() != 1) return usage("expected one FILE");
    if (!args.options.count("view")) return usage("--view is required");
    if (format != "csv" && format != "json" && format != "table") return usage("unknown --format " + format);
    const std::string& view = args.options.at("view");
    const std::string groupBy = args.options.count("group-by") ? args.options.at("group-by") : "name";
    if (groupBy != "name" && groupBy != "stack" && groupBy != "shapes") return usage("unknown --group-by " + groupBy);
    if (args.options.count("group-by") && view != "operators") return usage("--group-by is for --view operators");
    if (view != "overview" && view != "operators" && view != "kernels" && view != "modules" && view != "memory")
        return usage("unknown --view " + view);

    auto report = loadReport(args.positional[0]);
    if (!report) return kExitBadInput;
    auto sayMissing = [&](const std::string& missing) {
        if (!missing.empty())
            std::fprintf(stderr, "lanescope-cli pytorch: %s: %s\n", args.positional[0].c_str(), missing.c_str());
    };
    if (view == "memory") {
        const MemoryView memory = pytorchMemory(*report);
        sayMissing(memory.missing);
        if (!memory.missing.empty()) return kExitOk;
        if (format == "csv") std::fputs(devicesSummary(memory).c_str(), stderr);
        return writeOut(formattedMemoryView(*report, memory, format)) ? kExitOk : kExitBadInput;
    }
    if (view == "overview") {
        const StepOverview overview = pytorchStepOverview(*report);
        sayMissing(overview.missing);
        if (format == "csv" && !overview.summary.rows.empty())
            std::fprintf(stderr, "lanescope-cli pytorch: %s: %s\n", args.positional[0].c_str(),
                         overviewSummaryLine(overview).c_str());
        return writeOut(formattedOverview(overview, format)) ? kExitOk : kExitBadInput;
    }
    // The views of one table: through the registry the PyTorch panel uses, a grouping of the
    // operators by its entry's name.
    const PytorchViewResult result =
        findPytorchView(groupBy == "name" ? view : view + "-by-" + groupBy)->compute(*report, SIZE_MAX);
    sayMissing(result.missing);
    return writeOut(formattedTable(result.tables.front(), format)) ? kExitOk : kExitBadInput;
}

}  // namespace lanescope::cli
