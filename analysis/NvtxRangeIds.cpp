#include "analysis/NvtxRangeIds.h"

#include <queue>
#include <tuple>

namespace lanescope {

NvtxEventIds nvtxEventIds(const Report& report) {
    NvtxEventIds ids;
    ids.ranges.resize(report.lanes.size());
    ids.marks.resize(report.lanes.size());
    ids.others.resize(report.nvtx_other_starts_ns.size());
    // One sorted source per lane's ranges and per lane's markers, and the events no lane
    // holds; source order breaks ties of equal starts.
    struct Cursor {
        int64_t time;
        uint32_t source;  // 0: other events; 2 * lane + 1: its ranges; 2 * lane + 2: its markers
        size_t index;
    };
    auto later = [](const Cursor& a, const Cursor& b) {
        return std::tie(a.time, a.source, a.index) > std::tie(b.time, b.source, b.index);
    };
    auto timeAt = [&](uint32_t source, size_t i) {
        if (source == 0) return report.nvtx_other_starts_ns[i];
        const Lane& lane = report.lanes[(source - 1) / 2];
        return source % 2 ? lane.events.start_ns[i] : lane.instants.time_ns[i];
    };
    auto sizeOf = [&](uint32_t source) {
        if (source == 0) return report.nvtx_other_starts_ns.size();
        const Lane& lane = report.lanes[(source - 1) / 2];
        return source % 2 ? lane.events.size() : lane.instants.size();
    };
    std::priority_queue<Cursor, std::vector<Cursor>, decltype(later)> heap(later);
    auto open = [&](uint32_t source) {
        if (sizeOf(source) > 0) heap.push({timeAt(source, 0), source, 0});
    };
    open(0);
    for (uint32_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& lane = report.lanes[li];
        if (lane.kind != LaneKind::Nvtx && lane.kind != LaneKind::NvtxStartEnd) continue;
        ids.ranges[li].resize(lane.events.size());
        ids.marks[li].resize(lane.instants.size());
        open(2 * li + 1);
        open(2 * li + 2);
    }
    uint32_t next = 1;
    while (!heap.empty()) {
        Cursor c = heap.top();
        heap.pop();
        std::vector<uint32_t>& of = c.source == 0  ? ids.others
                                    : c.source % 2 ? ids.ranges[(c.source - 1) / 2]
                                                   : ids.marks[(c.source - 1) / 2];
        of[c.index] = next++;
        if (++c.index < sizeOf(c.source)) {
            c.time = timeAt(c.source, c.index);
            heap.push(c);
        }
    }
    return ids;
}

}  // namespace lanescope
