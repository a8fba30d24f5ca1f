#include "analysis/NvtxRangeIds.h"

#include <queue>
#include <tuple>

namespace lanescope {

std::vector<std::vector<uint32_t>> nvtxRangeIds(const Report& report) {
    std::vector<std::vector<uint32_t>> ids(report.lanes.size());
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
        ids[li].resize(lane.events.size());
        open(2 * li + 1);
        open(2 * li + 2);
    }
    uint32_t next = 1;
    while (!heap.empty()) {
        Cursor c = heap.top();
        heap.pop();
        if (c.source % 2) ids[(c.source - 1) / 2][c.index] = next;
        ++next;
        if (++c.index < sizeOf(c.source)) {
            c.time = timeAt(c.source, c.index);
            heap.push(c);
        }
    }
    return ids;
}

}  // namespace lanescope
