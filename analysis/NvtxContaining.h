#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/Lane.h"

// The NVTX ranges of a thread that enclose a time span, as the NVTX projections need them.
namespace lanescope {

// Calls visit(index) for each NvtxRange event of `lane` that contains [start, end]. Within a
// depth slice ranges are sorted by start and by end and never overlap, so the candidates are
// the last ranges starting at or before `start`, walking back while they end at or after
// `end`: usually one binary search and one step per depth.
template <typename Visit>
void nvtxRangesContaining(const Lane& lane, int64_t start, int64_t end, Visit&& visit) {
    const IntervalColumns& ev = lane.events;
    if (!lane.isFrozen()) return;
    for (size_t d = 0; d < lane.depth_count; ++d) {
        const DepthEvents atDepth = lane.atDepth(d);
        const auto first = atDepth.begin();
        auto it = std::partition_point(first, atDepth.end(), [&](uint32_t i) { return ev.start_ns[i] <= start; });
        while (it != first) {
            const uint32_t i = *--it;
            if (ev.endNs(i) < end) break;
            if (ev.kind[i] == EventKind::NvtxRange) visit(i);
        }
    }
}

// Where the lookups of one lane have got to in each depth slice (per depth, the number of its
// ranges starting at or before the last start asked), so that lookups at ascending starts
// (the calls of a thread in time order) walk each slice once instead of searching it each time.
struct NvtxContainingCursor {
    std::vector<size_t> started;
};

// nvtxRangesContaining through a cursor: the same ranges, in the same order.
template <typename Visit>
void nvtxRangesContaining(const Lane& lane, int64_t start, int64_t end, NvtxContainingCursor& cursor, Visit&& visit) {
    const IntervalColumns& ev = lane.events;
    if (!lane.isFrozen()) return;
    cursor.started.resize(lane.depth_count, 0);
    for (size_t d = 0; d < lane.depth_count; ++d) {
        const DepthEvents atDepth = lane.atDepth(d);
        const auto first = atDepth.begin();
        size_t& started = cursor.started[d];
        const size_t count = size_t(atDepth.end() - first);
        if (started > 0 && ev.start_ns[first[std::ptrdiff_t(started - 1)]] > start)  // an earlier start: search
            started =
                size_t(std::partition_point(first, atDepth.end(), [&](uint32_t i) { return ev.start_ns[i] <= start; }) -
                       first);
        while (started < count && ev.start_ns[first[std::ptrdiff_t(started)]] <= start) ++started;
        for (auto it = first + std::ptrdiff_t(started); it != first;) {
            const uint32_t i = *--it;
            if (ev.endNs(i) < end) break;
            if (ev.kind[i] == EventKind::NvtxRange) visit(i);
        }
    }
}

}  // namespace lanescope
