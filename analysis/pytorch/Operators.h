#pragma once
#include "analysis/StatsTable.h"
#include "model/Report.h"

namespace lanescope {

// PyTorch's operators view (docs/analyses.md, "PyTorch operators"): the `cpu_op` events of a
// Kineto import (the Nvtx lanes named kPytorchOperatorLaneName) grouped by name, one row per
// name: Name, Calls, CPU Total (ns), CPU Self (ns), Device Total (ns), Device Self (ns), sorted
// by CPU Total descending, then by name. No rows when the report holds no operators.
StatsTable pytorchOperators(const Report& report);

}  // namespace lanescope
