#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/DeferredLane.h"
#include "model/Report.h"

namespace lanescope {

// What the main window gives the timeline to build its deferred "NVTX on GPU" lanes
// (timeline/DeferredLanes.h): the lanes of `lane`'s process read back from the report's kept
// results (importers/cache/KeptResults.h) when an earlier open of the same file kept them, else
// projected (analysis/NvtxProjection.h) on `workers` threads and kept for the next open: beside
// the saved model once the report is settled (DeferredLanes::settled), else in that model, which
// is saved with them (SaveModel.h). A kept result that does not decode for this report is
// projected again and replaced.
std::vector<DeferredLaneEvents> nvtxOnGpuLanes(const Report& report, size_t lane, unsigned workers);

// The name of the result, kept beside a saved model that holds NVTX-on-GPU lane `lane` itself,
// giving the range each of its events stands for (analysis/DeferredLaneBytes.h).
std::string projectedSourcesName(size_t lane);
// What the main window gives the timeline to select, for a click on an event of an NVTX-on-GPU
// lane the report holds itself (a reopened model's), the NVTX range it stands for: read from that
// kept result (8 bytes an event, read and checked whole: 45 to 85 ms for a lane of the 50 M-event
// synthetic report, docs/performance.md), or nullopt without one.
std::optional<EventRef> keptNvtxOnGpuSource(const Report& report, size_t lane, uint32_t event);
// The NVTX range an event of any "NVTX on GPU" lane stands for: a built deferred lane's
// (timeline/DeferredLanes.h), else one the report holds itself (keptNvtxOnGpuSource); nullopt
// for other lanes. What selecting such an event selects, as a click on it in the timeline does.
std::optional<EventRef> projectedNvtxRange(const Report& report, size_t lane, uint32_t event);

}  // namespace lanescope
