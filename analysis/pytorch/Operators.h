#pragma once
#include <cstdint>
#include <functional>
#include <string_view>
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

// Whether the report's operators are its NVTX push/pop ranges: an Nsight Systems report of a
// PyTorch run under torch.autograd.profiler.emit_nvtx, which records each operator as a range
// ("aten::conv2d, seq = 12, sizes = [[64, 3, 32, 32], ...]"). True for a report of neither
// Kineto's nor Perfetto's format without Kineto operator lanes.
bool operatorsAreNvtxRanges(const Report& report);
// An operator's name from its event's text: emit_nvtx's ", seq = ", ", op_id = " and
// ", sizes = " fields cut off ("aten::conv2d"); a `cpu_op` name unchanged.
std::string_view operatorName(std::string_view rangeText);

// One group of operators' times (a name's, a name and stack's...), summed over its instances, in ns.
struct OperatorSums {
    int64_t calls = 0, cpuTotal = 0, cpuSelf = 0, deviceTotal = 0, deviceSelf = 0;
    // Adds event `i` of the operator lane of `times`.
    void add(const IntervalColumns& events, size_t i, const OperatorLaneTimes& times) {
        ++calls;
        cpuTotal += events.durationNs(i);
        cpuSelf += times.cpuSelf[i];
        deviceTotal += times.deviceTotal[i];
        deviceSelf += times.deviceSelf[i];
    }
};

// Calls `visit` once for each operator lane of the report, in lane order: the lanes named
// kPytorchOperatorLaneName, or where operatorsAreNvtxRanges, every thread's Nvtx lane.
void forEachOperatorLane(const Report& report, const std::function<void(const OperatorLaneTimes&)>& visit);

// PyTorch's operators view (docs/analyses.md, "PyTorch operators"): the `cpu_op` events of a
// Kineto import (the Nvtx lanes named kPytorchOperatorLaneName), or an nsys report's NVTX ranges
// (operatorsAreNvtxRanges), grouped by operatorName, one row per
// name: Name, Calls, CPU Total (ns), CPU Self (ns), Device Total (ns), Device Self (ns), sorted
// by CPU Total descending, then by name. No rows when the report holds no operators.
StatsTable pytorchOperators(const Report& report);

}  // namespace lanescope
