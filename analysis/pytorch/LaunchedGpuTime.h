#pragma once
#include <cstdint>
#include <vector>

#include "model/Report.h"

namespace lanescope {

// Per event of `ranges` (a frozen lane of one CPU thread: operators, Python frames), by event
// index: the GPU time (ns) of the kernels, memcpys and memsets launched (same correlation id)
// by the CUDA API calls of the lane Report::lanes[callsLane] (the same thread's CUDA API lane)
// for which it is the innermost event containing the call (forEachInnermostContaining). CUDA graph
// launches traced as a whole are not counted.
std::vector<int64_t> launchedGpuSelfNs(const Report& report, const Lane& ranges, uint32_t callsLane);

// Per event, by event index: its own value plus those of all its descendants, given each
// event's parent (parentsByDepth: parents precede their children).
std::vector<int64_t> withDescendants(const std::vector<uint32_t>& parent, std::vector<int64_t> own);

}  // namespace lanescope
