#pragma once
#include <string>

#include "analysis/StatsTable.h"
#include "model/Report.h"

namespace lanescope {

// The PyTorch operators view grouped by operator name and input shapes (TensorBoard's "group
// by input shape"): an operator's shapes are its `cpu_op` event's "Input Dims", recorded with
// record_shapes=True, as the importer keeps them (NvtxInfo::input_shapes_id: the JSON text
// without whitespace but one space after each comma, "[[64, 3, 32, 32], [32], []]"); empty for
// an operator without them. Columns (docs/analyses.md, "PyTorch operators"): Name, Input Shapes,
// then the operators view's Calls, CPU Total (ns), CPU Self (ns), Device Total (ns), Device Self
// (ns) summed over the instances of that name and shapes. Sorted by CPU Total descending, then
// by name, then by shapes text.
struct OperatorShapesView {
    // Name "pytorch_operator_shapes"; no rows when no operator of the report has input shapes.
    StatsTable table;
    // Why the table has no rows, for the caller to print; empty when it has rows.
    std::string missing;
};

OperatorShapesView pytorchOperatorShapes(const Report& report);

}  // namespace lanescope
