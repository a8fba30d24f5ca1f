#pragma once
#include <string>
#include <string_view>

#include "analysis/StatsTable.h"
#include "model/Report.h"

namespace lanescope {

// How an operator's Python call stack is written in one cell: its frames innermost first,
// joined by this.
inline constexpr std::string_view kCallStackSeparator = " <- ";

// The PyTorch operators view grouped by operator name and Python call stack (TensorBoard's
// "group by stack"): the stack of an operator is the chain of Python frames (`python_function`
// events, recorded with with_stack=True, in its thread's Python lane) that contain it, from the
// innermost containing one out, each frame as the trace names it ("nn.Module: Conv2d_0",
// "torch/nn/modules/conv.py(554): forward"), joined by kCallStackSeparator; empty where no
// frame contains it. Columns (docs/analyses.md, "PyTorch operators"): Name, Call Stack, then
// the operators view's Calls, CPU Total (ns), CPU Self (ns), Device Total (ns), Device Self (ns)
// summed over the instances of that name and stack. Sorted by CPU Total descending, then by
// name, then by stack.
struct OperatorStacksView {
    // Name "pytorch_operator_stacks"; no rows when the report has no Python frames or no operators.
    StatsTable table;
    // Why the table has no rows, for the caller to print; empty when it has rows.
    std::string missing;
};

OperatorStacksView pytorchOperatorStacks(const Report& report);

}  // namespace lanescope
