// lanescope-cli pytorch: the views PyTorch users know from TensorBoard's profiler (CLI.md).
#include <cstdio>
#include <utility>

#include "analysis/pytorch/KernelsView.h"
#include "analysis/pytorch/Operators.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/TableOutput.h"

namespace lanescope::cli {
namespace {

constexpr const char* kUsage =
    "usage: lanescope-cli pytorch FILE --view overview|operators|kernels|memory [--format csv|json|table]\n";

}  // namespace

int runPytorch(int argc, char** argv, int first) {
    const ParsedArgs args = parseArgs(argc, argv, first, {"view", "format"});
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
    if (view == "overview" || view == "memory") {
        std::fprintf(stderr,
                     "lanescope-cli pytorch: the %s view is not yet available (only operators and kernels are)\n",
                     view.c_str());
        return kExitUsage;
    }
    if (view != "operators" && view != "kernels") return usage("unknown --view " + view);

    auto report = loadReport(args.positional[0]);
    if (!report) return kExitBadInput;
    StatsTable table;
    if (view == "kernels") {
        KernelsView kernels = pytorchKernels(*report);
        if (!kernels.missing.empty())
            std::fprintf(stderr, "lanescope-cli pytorch: %s: %s\n", args.positional[0].c_str(),
                         kernels.missing.c_str());
        table = std::move(kernels.table);
    } else {
        table = pytorchOperators(*report);
        if (table.rows.empty())
            std::fprintf(stderr,
                         "lanescope-cli pytorch: %s records no PyTorch operators (no cpu_op or Operator events): "
                         "the operators table is empty\n",
                         args.positional[0].c_str());
        else if (report->kernels.empty() && report->memcpys.empty() && report->memsets.empty())
            std::fprintf(stderr,
                         "lanescope-cli pytorch: %s records no GPU work (kernels, memcpy, memset): the device "
                         "columns are 0\n",
                         args.positional[0].c_str());
    }
    return writeOut(formattedTable(table, format)) ? kExitOk : kExitBadInput;
}

}  // namespace lanescope::cli
