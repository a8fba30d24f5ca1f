#pragma once
#include <cstdint>
#include <vector>

#include "model/Lane.h"
#include "timeline/PixelMapping.h"

namespace lanescope {

// One box to draw in a lane: pixels [x0, x1) at `depth`. A box is either one event
// (count == 1) or a merged run of `count` events too narrow to draw one by one; the run is
// lane.depth_order[first .. first + count), consecutive events of that depth.
struct Box {
    float x0, x1;
    uint32_t first;  // position in Lane::depth_order
    uint32_t count;
    uint8_t depth;
    uint32_t event(const Lane& lane) const { return lane.depth_order[first]; }
};

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

// Emits the visible geometry of a lane, depth by depth, left to right, in
// O(visible boxes * log n): an event at least min_box_px wide is a box of its own; a run of
// narrower ones, found by jumping with a binary search to the next min_box_px boundary,
// becomes one merged box. Every event overlapping the visible range is in exactly one box.
// Depths >= max_depths are skipped (the row is drawn shorter than the lane is deep).
void buildLaneGeometry(const Lane& lane, const PixelMapping& map, GeometrySink& sink, const LodOptions& options = {},
                       int max_depths = 256);

// A sampled counter reduced to one column per pixel: the min, max and last value of the
// samples in that column, or, where none falls in it, the value holding from before.
struct CounterColumn {
    float min, max, last;
    bool has_value;  // false before the first sample
};
std::vector<CounterColumn> buildCounterColumns(const std::vector<int64_t>& time_ns, const std::vector<double>& value,
                                               const PixelMapping& map);

}  // namespace lanescope
