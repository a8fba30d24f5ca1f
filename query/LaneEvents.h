#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

#include "model/Report.h"

namespace lanescope::sql {

// The events of one kind on the lanes one predicate picks, as a table's segments: one segment
// per such lane holding any, in Report::lanes order; a segment's rows are the lane's events of
// that kind (or its instants), in start order. Built on first use, O(events of those lanes),
// on whichever thread asks first; a lane whose events are all of the kind keeps no list.
class LaneEvents {
public:
    enum class Part { Intervals, Instants };
    LaneEvents(const Report& report, std::function<bool(const Lane&)> picks, Part part,
               std::optional<EventKind> kind = std::nullopt);

    size_t segmentCount() const { return built().size(); }
    uint32_t segmentSize(size_t segment) const { return built()[segment].size; }
    uint32_t laneIndex(size_t segment) const { return built()[segment].lane; }
    const Lane& lane(size_t segment) const { return report_.lanes[laneIndex(segment)]; }
    // The event's index in its lane's IntervalColumns or InstantColumns.
    uint32_t event(size_t segment, uint32_t row) const {
        const Segment& s = built()[segment];
        return s.events.empty() ? row : s.events[row];
    }
    // The start of a row (an instant's time).
    int64_t startNs(size_t segment, uint32_t row) const;

private:
    // One lane's rows; events empty when the rows are all of the lane's events (or instants).
    struct Segment {
        uint32_t lane = 0;
        uint32_t size = 0;
        std::vector<uint32_t> events;  // ascending event indexes
    };
    // The segments, built on the first call: a plain load on every later call (the accessors
    // run for every row of a scan).
    const std::vector<Segment>& built() const {
        if (!built_.load(std::memory_order_acquire)) build();
        return segments_;
    }
    void build() const;

    const Report& report_;
    std::function<bool(const Lane&)> picks_;
    Part part_;
    std::optional<EventKind> kind_;
    mutable std::once_flag once_;
    mutable std::atomic<bool> built_{false};
    mutable std::vector<Segment> segments_;
};

// By thread index: the index of its ThreadState lane in Report::lanes, -1 for a thread with none.
std::vector<int32_t> threadStateLanes(const Report& report);

}  // namespace lanescope::sql
