// How the events of one thread's lanes nest: each thread's lane of a kind, parents within a lane.
#include "analysis/pytorch/ThreadNesting.h"

#include <algorithm>

namespace lanescope {

std::vector<int64_t> laneByThread(const Report& report, LaneKind kind, std::string_view name) {
    std::vector<int64_t> lanes(report.threads.size(), -1);
    for (size_t l = 0; l < report.lanes.size(); ++l) {
        const Lane& lane = report.lanes[l];
        if (lane.kind == kind && lane.thread >= 0 && (name.empty() || report.str(lane.name_id) == name))
            lanes[static_cast<size_t>(lane.thread)] = static_cast<int64_t>(l);
    }
    return lanes;
}

std::vector<uint32_t> parentsByDepth(const IntervalColumns& events) {
    std::vector<uint32_t> parent(events.size(), kNoEvent);
    std::vector<uint32_t> open;  // the latest event at each depth, outermost first
    for (size_t i = 0; i < events.size(); ++i) {
        open.resize(std::min<size_t>(events.depth[i], open.size()));
        if (!open.empty()) parent[i] = open.back();
        open.push_back(static_cast<uint32_t>(i));
    }
    return parent;
}

}  // namespace lanescope
