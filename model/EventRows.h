#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "model/Report.h"

namespace lanescope {

// One lane as a source of an events list: lane `lane` of `*report`, whose own times sit
// `offset_ns` later on the shared timeline of the reports open together (ViewSession::offsets).
// `built`: the lane's events when they are not the report's own (a deferred lane built after the
// import, model/DeferredLane.h), else null. The report and `built` must outlive whatever holds
// the source.
struct EventSource {
    const Report* report = nullptr;
    uint32_t lane = 0;
    int64_t offset_ns = 0;
    const Lane* built = nullptr;
    const Lane& shownLane() const { return built ? *built : report->lanes[lane]; }
};

// One event of an events list: sources[source]'s lane, event `index`. 8 bytes.
struct SourcedEvent {
    uint32_t source = 0;
    uint32_t index = 0;
    bool operator==(const SourcedEvent&) const = default;
};

// The interval events of some lanes that lie in a time range: the rows of the Events table
// before it is sorted or filtered. An event lies in [begin_ns, end_ns) (shared timeline, ns)
// when it overlaps it (start < end_ns and end > begin_ns) or starts inside it (a zero-duration
// event at begin_ns). Rows are in start order: (start on the shared timeline, source, index)
// ascending.
//
// Little is stored per event. In one lane the events of a range are the few that start before
// it and reach into it (at most one per depth, since events at one depth never overlap) and
// then a contiguous run of indexes (start order is index order), so a lane is kept as those
// few indexes and the run's bounds: O(depths + log n) to build, no per-event memory. Only
// several lanes are merged into one array of SourcedEvent, 8 bytes a row, O(rows log lanes).
class EventRows {
public:
    EventRows() = default;
    static EventRows collect(std::vector<EventSource> sources, int64_t begin_ns, int64_t end_ns);

    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    // Row `row` (< size()), in start order.
    SourcedEvent at(size_t row) const {
        if (!merged_.empty()) return merged_[row];
        const LaneRun& run = runs_.front();
        if (row < run.before.size()) return {0, run.before[row]};
        return {0, run.first + static_cast<uint32_t>(row - run.before.size())};
    }
    const std::vector<EventSource>& sources() const { return sources_; }
    const EventSource& source(const SourcedEvent& e) const { return sources_[e.source]; }
    const Lane& lane(const SourcedEvent& e) const { return sources_[e.source].shownLane(); }
    // Start and end of a row's event on the shared timeline, ns.
    int64_t startNs(const SourcedEvent& e) const { return lane(e).events.start_ns[e.index] + source(e).offset_ns; }
    int64_t endNs(const SourcedEvent& e) const { return lane(e).events.endNs(e.index) + source(e).offset_ns; }
    // The row of an event of the lane `lane` of `report`, if it is one of the rows. O(log rows).
    std::optional<size_t> rowOf(const Report* report, uint32_t lane, uint32_t index) const;
    int64_t beginNs() const { return begin_ns_; }
    int64_t endNs() const { return end_ns_; }

private:
    // One source's events in the range, in index order: `before` (the events that start
    // before the range and reach into it, ascending), then the indexes [first, last).
    struct LaneRun {
        std::vector<uint32_t> before;
        uint32_t first = 0, last = 0;
        size_t size() const { return before.size() + (last - first); }
    };
    bool lessInOrder(const SourcedEvent& a, const SourcedEvent& b) const;

    std::vector<EventSource> sources_;
    std::vector<LaneRun> runs_;         // per source
    std::vector<SourcedEvent> merged_;  // every row in start order; only with several sources
    size_t size_ = 0;
    int64_t begin_ns_ = 0, end_ns_ = 0;  // the range, shared timeline
};

}  // namespace lanescope
