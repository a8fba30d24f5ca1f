#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "model/Report.h"

namespace lanescope {

// No event: the parent of an outermost event, or no event containing another.
inline constexpr uint32_t kNoEvent = UINT32_MAX;

// Per thread (index into Report::threads), the index into Report::lanes of its lane of kind
// `kind` named `name` (any name when empty); -1 where it has none.
std::vector<int64_t> laneByThread(const Report& report, LaneKind kind, std::string_view name = {});

// Per event of a frozen lane, by event index: its parent, the latest earlier event one depth
// up (the lane's events are in start order, parents first), or kNoEvent at depth 0.
std::vector<uint32_t> parentsByDepth(const IntervalColumns& events);

// Calls visit(innerEvent, outerEvent) for each event of `inner` that an event of `outer` (a
// frozen lane of the same thread) contains, starting at or before it and ending at or after it,
// with the innermost such outer event; in inner event order. Both are in start order;
// O(outer + inner) but for the chain walked per inner event, at most the outer lane's depth.
template <typename Visit>
void forEachInnermostContaining(const IntervalColumns& outer, const IntervalColumns& inner, Visit&& visit) {
    std::vector<uint32_t> chain;  // the latest outer event at each depth, outermost first
    size_t next = 0;
    for (size_t c = 0; c < inner.size(); ++c) {
        const int64_t start = inner.start_ns[c], end = inner.endNs(c);
        for (; next < outer.size() && outer.start_ns[next] <= start; ++next) {
            chain.resize(std::min<size_t>(outer.depth[next], chain.size()));
            chain.push_back(static_cast<uint32_t>(next));
        }
        const auto innermost =
            std::find_if(chain.rbegin(), chain.rend(), [&](uint32_t o) { return outer.endNs(o) >= end; });
        if (innermost != chain.rend()) visit(static_cast<uint32_t>(c), *innermost);
    }
}

}  // namespace lanescope
