#pragma once
#include <string>
#include <string_view>

#include "analysis/StatsTable.h"
#include "model/Report.h"

namespace lanescope {

// The PyTorch "kernels" view (TensorBoard's Kernel view): the GPU kernels of a report grouped
// by name, with the configuration they were launched with and the operator that launched them.
// Columns (docs/analyses.md, "PyTorch kernels"): Name, Calls, Total (ns), Mean (ns), Min (ns),
// Max (ns), Grid, Block, Registers Per Thread, Shared Memory (B), Est. Achieved Occupancy (%),
// Tensor Cores, Operator. Times in integer nanoseconds (Mean with one decimal); rows sorted by
// Total descending, ties by name ascending.
struct KernelsView {
    StatsTable table;  // name "pytorch_kernels"; no rows when the report has no kernels
    // Why the table has no rows, for the caller to print ("the trace records no GPU kernels...");
    // empty when it has rows.
    std::string missing;
};

KernelsView pytorchKernels(const Report& report);

// Whether a kernel uses Tensor Cores, guessed from its name alone: "yes", "no" or "unknown"
// (docs/analyses.md gives the rule; a heuristic, since the trace records nothing about it).
std::string_view tensorCoresByName(std::string_view kernelName);

}  // namespace lanescope
