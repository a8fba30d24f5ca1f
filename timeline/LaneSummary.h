#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "model/Lane.h"

namespace lanescope {

// A lane's events grouped once for wide views, so that drawing them reads a few thousand
// units instead of searching millions of events (LaneGeometry.h uses it; the boxes it draws
// from a summary are the same as from the events).
//
// One level of one depth: the depth's events (positions depth_begin[d] .. depth_begin[d+1] of
// the lane's depth-grouped order, Lane::eventAtPosition) cut into units, in depth order, tiling them without gap. A
// unit is one event, or a run of consecutive events each shorter than half a cell (2^cell_shift ns) whose starts all
// lie in the same cell (cells: [k * 2^cell_shift, (k + 1) * 2^cell_shift) of the lane's own time). Events at least half
// a cell long are units of their own. A view merges narrow events by cells of 2^s ns, s >= cell_shift, so each of its
// merged runs is a run of whole units. Columns, one entry per unit, in depth order:
struct SummaryLevel {
    int cell_shift = 0;
    std::vector<uint32_t> first;    // position in the depth-grouped order of the unit's first event, ascending
    std::vector<int64_t> start_ns;  // start of its first event
    std::vector<int64_t> end_ns;    // end of its last event
    std::vector<uint32_t> color;    // of its first event (0xAARRGGBB, as EventColors gives it), so
                                    // that a wide view reads no event column to colour its boxes
    size_t size() const { return first.size(); }
};

// The levels of one depth, finest (smallest cell_shift) first, 4 shifts (x16) apart; empty
// when the depth is small enough to draw from its events at every zoom.
struct DepthSummary {
    std::vector<SummaryLevel> levels;
};

struct LaneSummary {
    std::vector<DepthSummary> depths;  // by depth, Lane::depth_count of them
    size_t memoryBytes() const;
};

// Builds the summary of a frozen lane in O(n): levels whose units are at most 1/16 of the
// depth's events (so all levels take at most about 1.4 bytes an event), coarser ones until a
// level holds at most a few hundred units. Depths of fewer than min_events events get none
// (drawing them from their events is as fast).
// colorOf(event): the colour of an event (an index into lane.events).
LaneSummary buildLaneSummary(const Lane& lane, const std::function<uint32_t(uint32_t)>& colorOf,
                             uint32_t min_events = 4096);

}  // namespace lanescope
