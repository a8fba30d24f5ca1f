#include "query/LaneEvents.h"

#include <algorithm>

namespace lanescope::sql {

LaneEvents::LaneEvents(const Report& report, std::function<bool(const Lane&)> picks, Part part,
                       std::optional<EventKind> kind)
    : report_(report), picks_(std::move(picks)), part_(part), kind_(kind) {}

void LaneEvents::build() const {
    std::call_once(once_, [this] {
        for (size_t l = 0; l < report_.lanes.size(); ++l) {
            const Lane& lane = report_.lanes[l];
            if (!picks_(lane)) continue;
            Segment segment{uint32_t(l), 0, {}};
            if (part_ == Part::Instants) {
                segment.size = uint32_t(lane.instants.size());
            } else if (!kind_ || std::all_of(lane.events.kind.begin(), lane.events.kind.end(),
                                             [&](EventKind k) { return k == *kind_; })) {
                segment.size = uint32_t(lane.events.size());
            } else {
                for (uint32_t i = 0; i < lane.events.size(); ++i)
                    if (lane.events.kind[i] == *kind_) segment.events.push_back(i);
                segment.size = uint32_t(segment.events.size());
            }
            if (segment.size > 0) segments_.push_back(std::move(segment));
        }
        built_.store(true, std::memory_order_release);
    });
}

int64_t LaneEvents::startNs(size_t segment, uint32_t row) const {
    const Lane& l = lane(segment);
    const uint32_t e = event(segment, row);
    return part_ == Part::Instants ? l.instants.time_ns[e] : l.events.start_ns[e];
}

std::vector<int32_t> threadStateLanes(const Report& report) {
    std::vector<int32_t> lanes(report.threads.size(), -1);
    for (size_t l = 0; l < report.lanes.size(); ++l) {
        const Lane& lane = report.lanes[l];
        if (lane.kind == LaneKind::ThreadState && lane.thread >= 0 && size_t(lane.thread) < lanes.size())
            lanes[size_t(lane.thread)] = int32_t(l);
    }
    return lanes;
}

}  // namespace lanescope::sql
