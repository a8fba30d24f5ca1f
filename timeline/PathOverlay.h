#pragma once
#include <cstdint>
#include <vector>

namespace lanescope {

// A path drawn over the timeline (the Critical path panel's, TimelineView::setPathOverlay): its
// item segments outlined on their rows and joined by thin lines, its gaps drawn as a thin
// dotted bar on their lane's row, everything else dimmed. Columns, one row per segment, sorted
// by start_ns ascending (contiguous segments: end_ns ascending too). Times in ns on the
// report's own timeline (TimelineView adds reportOffset(report)).
struct PathOverlay {
    std::vector<int32_t> report;  // index into TimelineView::reports()
    std::vector<int32_t> lane;    // index into that report's lanes; -1: none (not drawn)
    std::vector<int32_t> event;   // the item's event in `lane` (for its depth); -1 for a gap
    std::vector<int64_t> start_ns, end_ns;
    std::vector<uint8_t> item;  // 1: an item (an event of `lane`), 0: a gap (CPU, launch or sync latency)

    size_t size() const { return start_ns.size(); }
    bool empty() const { return start_ns.empty(); }
};

}  // namespace lanescope
