#pragma once
#include <cstddef>
#include <vector>

#include "model/Find.h"
#include "model/Lane.h"
#include "model/Report.h"

namespace lanescope {

// A deferred lane is one a viewer's import adds empty, naming its row only (kind, process,
// GPU, name), and whose events are computed only when that row is first drawn: the
// "NVTX on GPU" lanes (analysis/NvtxProjection.h), which cost a projection of every NVTX range.
// The report itself never changes after import; the computed events are kept beside it
// (timeline/DeferredLanes.h).
inline bool isDeferredLane(const Report& report, size_t lane) {
    if (lane >= report.lanes.size()) return false;
    const Lane& l = report.lanes[lane];
    return l.kind == LaneKind::NvtxGpuProjection && l.events.size() == 0 && l.instants.size() == 0;
}

// The events computed for one deferred lane: `content` is a frozen lane of its
// kind (sorted as every frozen lane is), and sources[i] the event that content's i-th event
// (index order) stands for, in its own lane (a projected NVTX range: the range itself).
struct DeferredLaneEvents {
    size_t lane = 0;  // index of the deferred lane in Report::lanes
    Lane content;
    std::vector<EventRef> sources;
};

}  // namespace lanescope
