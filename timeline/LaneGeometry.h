#pragma once
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "model/Lane.h"
#include "timeline/CounterSummary.h"
#include "timeline/LaneSummary.h"
#include "timeline/PixelMapping.h"

namespace lanescope {

// One box to draw in a lane: pixels [x0, x1) at `depth` (boxPixels of start_ns, end_ns). A
// box is either one event (count == 1) or a merged run of `count` events too narrow to draw one
// by one; the run is the events at positions first .. first + count of the lane's depth-grouped
// order (Lane::depth_order), consecutive events of that depth,
// from the start of the first (start_ns) to the end of the last (end_ns), in the lane's own ns.
struct Box {
    float x0, x1;
    uint32_t first;  // position in the lane's depth-grouped order (Lane::eventAtPosition)
    uint32_t count;
    uint8_t depth;
    int64_t start_ns = 0, end_ns = 0;
    uint32_t color = 0;  // of the first event when drawn from a summary (SummaryLevel::color), else 0
    uint32_t event(const Lane& lane) const { return lane.eventAtPosition(first); }
};

// The pixels [x0, x1) of a box from `start` to `end`: at least one pixel wide.
struct BoxPixels {
    float x0, x1;
};
inline BoxPixels boxPixels(const PixelMapping& map, int64_t start, int64_t end) {
    const double x0 = map.toX(start);
    return {float(x0), float(std::max(map.toX(end), x0 + 1.0))};
}

// One marker (instant) to draw at pixel x; merged markers carry their count. `first` is
// the index of the first instant in Lane::instants.
struct MarkerBox {
    float x;
    uint32_t first;
    uint32_t count;
};

// Receives geometry; tests record it, the painter draws it.
class GeometrySink {
public:
    virtual ~GeometrySink() = default;
    virtual void box(const Box& box) = 0;
    virtual void marker(const MarkerBox& marker) = 0;
};

struct LodOptions {
    double min_box_px = 3.0;  // narrower events merge into runs of about this width
};

// Narrow events merge by cells of 2^mergeShift ns of the lane's own time: the largest power
// of two at most min_box_px pixels (at least 1 ns). Cells do not move with the view, so a pan
// keeps every merged box as it was (only shifted), and summaries built once serve every view.
int mergeShift(const PixelMapping& map, const LodOptions& options = {});

// Emits the geometry of a lane, depth by depth, left to right. An event is wide when it is at
// least min_box_px pixels and at least a cell long: a box of its own. The other events of a
// depth merge into one box per cell: all events starting in that cell except a last wide
// one (a wide event is always the last to start in its cell). The boxes emitted are those
// holding an event that overlaps the visible range [map.begin_ns, map.end_ns()), so the first
// and last may hold events out of sight; every event overlapping that range is in exactly one.
// In O(boxes * log n) from the events; with the lane's summary (LaneSummary.h), wide views read
// its units instead, at O(boxes * log 16) on a few thousand units, giving the same boxes.
// Depths >= max_depths are skipped (the row is drawn shorter than the lane is deep).
void buildLaneBoxes(const Lane& lane, const PixelMapping& map, GeometrySink& sink, const LodOptions& options = {},
                    int max_depths = 256, const LaneSummary* summary = nullptr);
// The lane's instants in the visible range, merged where closer than min_box_px.
void buildLaneMarkers(const Lane& lane, const PixelMapping& map, GeometrySink& sink, const LodOptions& options = {});
// Both, boxes first.
void buildLaneGeometry(const Lane& lane, const PixelMapping& map, GeometrySink& sink, const LodOptions& options = {},
                       int max_depths = 256, const LaneSummary* summary = nullptr);

// A sampled counter reduced to one column per pixel: the max value of the samples in that
// column and of the value holding from before, or, where none falls in it, the value holding
// from before (what the chart fills up to). With the counter's summary, the same in
// O(columns x (log n + 16 x levels)) instead of a read of every sample.
struct CounterColumn {
    float max;
    bool has_value;  // false before the first sample
};
std::vector<CounterColumn> buildCounterColumns(std::span<const int64_t> time_ns, std::span<const double> value,
                                               const PixelMapping& map, const CounterSummary* summary = nullptr);

}  // namespace lanescope
