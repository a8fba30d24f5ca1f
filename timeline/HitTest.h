#pragma once
#include <vector>

#include "timeline/LaneGeometry.h"

namespace lanescope {

// The box under pixel x at `depth`, or nullptr: `boxes` as buildLaneGeometry emitted them
// (by depth, then left to right). A box spans [x0, x1); boxes narrower than
// `min_target_px` are hit within that width around their centre, so thin events can be picked.
const Box* boxAt(const std::vector<Box>& boxes, int depth, double x, double min_target_px = 3.0);

}  // namespace lanescope
