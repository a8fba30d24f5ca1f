#pragma once
#include <queue>
#include <tuple>

namespace lanescope::nsysstats {

template <typename Visit>
void forEachEventByStart(const Report& report, std::initializer_list<EventKind> kinds, TimeRange range,
                         Visit&& visit) {
    auto wanted = [&](EventKind k) { return std::find(kinds.begin(), kinds.end(), k) != kinds.end(); };
    // Per lane: the next candidate index and the end of its slice of starts inside the range.
    struct Cursor {
        int64_t start;
        uint32_t lane;
        size_t index;
        size_t last;
    };
    auto later = [](const Cursor& a, const Cursor& b) {
        return std::tie(a.start, a.lane, a.index) > std::tie(b.start, b.lane, b.index);
    };
    std::priority_queue<Cursor, std::vector<Cursor>, decltype(later)> heap(later);
    for (uint32_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& lane = report.lanes[li];
        if (!std::any_of(kinds.begin(), kinds.end(), [&](EventKind k) { return laneHolds(lane.kind, k); })) continue;
        const auto& starts = lane.events.start_ns;
        const size_t first = size_t(std::lower_bound(starts.begin(), starts.end(), range.begin_ns) - starts.begin());
        const size_t last =
            size_t(std::lower_bound(starts.begin() + first, starts.end(), range.end_ns) - starts.begin());
        if (first < last) heap.push({starts[first], li, first, last});
    }
    for (size_t visited = 0; !heap.empty(); ++visited) {
        if ((visited & 0xFFFF) == 0) cancellationPoint();
        Cursor c = heap.top();
        heap.pop();
        const Lane& lane = report.lanes[c.lane];
        const IntervalColumns& ev = lane.events;
        if (wanted(ev.kind[c.index]) && ev.endNs(c.index) <= range.end_ns) visit(lane, c.index);
        if (++c.index < c.last) {
            c.start = ev.start_ns[c.index];
            heap.push(c);
        }
    }
}

}  // namespace lanescope::nsysstats
