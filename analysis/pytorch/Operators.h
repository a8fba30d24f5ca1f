#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "analysis/StatsTable.h"
#include "model/Report.h"

namespace lanescope {

// The times of every operator of one lane named kPytorchOperatorLaneName (one thread's
// `cpu_op` events of a Kineto import), per event: the per-instance pass of the operators view,
// which its groupings (by name, by Python call stack) sum. Each vector is by event index, in ns
// (docs/analyses.md, "PyTorch operators"); an event's CPU Total is its duration.
struct OperatorLaneTimes {
    uint32_t lane = 0;  // index into Report::lanes
    std::vector<int64_t> cpuSelf, deviceTotal, deviceSelf;
};

// Calls `visit` once for each operator lane of the report, in lane order.
void forEachOperatorLane(const Report& report, const std::function<void(const OperatorLaneTimes&)>& visit);

// PyTorch's operators view (docs/analyses.md, "PyTorch operators"): the `cpu_op` events of a
// Kineto import (the Nvtx lanes named kPytorchOperatorLaneName) grouped by name, one row per
// name: Name, Calls, CPU Total (ns), CPU Self (ns), Device Total (ns), Device Self (ns), sorted
// by CPU Total descending, then by name. No rows when the report holds no operators.
StatsTable pytorchOperators(const Report& report);

}  // namespace lanescope
