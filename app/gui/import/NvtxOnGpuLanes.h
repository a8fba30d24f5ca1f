#pragma once
#include <cstddef>
#include <vector>

#include "model/DeferredLane.h"
#include "model/Report.h"

namespace lanescope {

// What the main window gives the timeline to build its deferred "NVTX on GPU" lanes
// (timeline/DeferredLanes.h): the lanes of `lane`'s process read back from the report's kept
// results (importers/cache/KeptResults.h) when an earlier open of the same file kept them, else
// projected (analysis/NvtxProjection.h) on `workers` threads and kept for the next open. A kept
// result that does not decode for this report is projected again and replaced.
std::vector<DeferredLaneEvents> nvtxOnGpuLanes(const Report& report, size_t lane, unsigned workers);

}  // namespace lanescope
