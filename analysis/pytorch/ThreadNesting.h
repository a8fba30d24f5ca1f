#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "model/Report.h"

namespace lanescope {

// No event: the parent of an outermost event, or no event containing another.
inline constexpr uint32_t kNoEvent = UINT32_MAX;

// The name of a thread's Nvtx lane that holds its Python frames and nn.Module calls
// (`python_function` events) in a Kineto import: the Kineto importer's name for it
// (importers/kineto/KinetoBuilder.cpp), beside kPytorchOperatorLaneName's "CPU ops".
inline constexpr std::string_view kPytorchPythonLaneName = "Python";

// Per thread (index into Report::threads), the index into Report::lanes of its lane of kind
// `kind` named `name` (any name when empty); -1 where it has none.
std::vector<int64_t> laneByThread(const Report& report, LaneKind kind, std::string_view name = {});

// Per event of a frozen lane, by event index: its parent, the latest earlier event one depth
// up (the lane's events are in start order, parents first), or kNoEvent at depth 0.
std::vector<uint32_t> parentsByDepth(const IntervalColumns& events);

// Per event of `inner`, by event index: the innermost event of `outer` (a frozen lane of the
// same thread) that contains it, starting at or before it and ending at or after it; kNoEvent
// where none does. Both are in start order; O(outer + inner) but for the chain walked per
// inner event, at most the outer lane's depth.
std::vector<uint32_t> innermostContaining(const IntervalColumns& outer, const IntervalColumns& inner);

}  // namespace lanescope
