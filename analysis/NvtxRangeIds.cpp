#include "analysis/NvtxRangeIds.h"

#include <algorithm>
#include <queue>
#include <tuple>

namespace lanescope {
namespace {

// The next event of one sorted source of NVTX events.
struct NvtxIdCursor {
    int64_t time;
    uint32_t source;  // 0: other events; 2 * lane + 1: its ranges; 2 * lane + 2: its markers
    size_t index;
};

// Puts `run`, events that all start at `time` in source order, in the order the report recorded
// them (Report::nvtx_ties), matched by thread and holder; events it does not list stay after, in
// source order.
void orderNvtxTiesAsRecorded(const Report& report, int64_t time, std::vector<NvtxIdCursor>& run) {
    const auto& ties = report.nvtx_ties;
    const auto first = std::lower_bound(ties.begin(), ties.end(), time,
                                        [](const NvtxTie& t, int64_t start) { return t.start_ns < start; });
    const auto last =
        std::upper_bound(first, ties.end(), time, [](int64_t start, const NvtxTie& t) { return start < t.start_ns; });
    if (first == last) return;
    std::vector<NvtxIdCursor> ordered;
    std::vector<bool> used(run.size(), false);
    for (auto t = first; t != last; ++t)
        for (size_t k = 0; k < run.size(); ++k) {
            const uint32_t source = run[k].source;
            const NvtxHolder holder = source == 0  ? NvtxHolder::Other
                                      : source % 2 ? NvtxHolder::Range
                                                   : NvtxHolder::Mark;
            if (used[k] || holder != t->holder) continue;
            if (source != 0 && report.lanes[(source - 1) / 2].thread != t->thread) continue;
            used[k] = true;
            ordered.push_back(run[k]);
            break;
        }
    for (size_t k = 0; k < run.size(); ++k)
        if (!used[k]) ordered.push_back(run[k]);
    run = std::move(ordered);
}

}  // namespace

NvtxEventIds nvtxEventIds(const Report& report) {
    NvtxEventIds ids;
    ids.ranges.resize(report.lanes.size());
    ids.marks.resize(report.lanes.size());
    ids.others.resize(report.nvtx_other_starts_ns.size());
    // One sorted source per lane's ranges and per lane's markers, and the events no lane
    // holds; source order breaks ties of equal starts.
    auto later = [](const NvtxIdCursor& a, const NvtxIdCursor& b) {
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
    std::priority_queue<NvtxIdCursor, std::vector<NvtxIdCursor>, decltype(later)> heap(later);
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
    // Events of equal start take their ids together, in the report's order where it recorded
    // one (Report::nvtx_ties), else in source order.
    uint32_t next = 1;
    std::vector<NvtxIdCursor> run;
    while (!heap.empty()) {
        const int64_t time = heap.top().time;
        run.clear();
        while (!heap.empty() && heap.top().time == time) {
            NvtxIdCursor c = heap.top();
            heap.pop();
            run.push_back(c);
            if (c.index + 1 < sizeOf(c.source)) heap.push({timeAt(c.source, c.index + 1), c.source, c.index + 1});
        }
        if (run.size() > 1) orderNvtxTiesAsRecorded(report, time, run);
        for (const NvtxIdCursor& c : run) {
            std::vector<uint32_t>& of = c.source == 0  ? ids.others
                                        : c.source % 2 ? ids.ranges[(c.source - 1) / 2]
                                                       : ids.marks[(c.source - 1) / 2];
            of[c.index] = next++;
        }
    }
    return ids;
}

}  // namespace lanescope
