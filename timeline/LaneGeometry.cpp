#include "timeline/LaneGeometry.h"

#include <algorithm>

namespace lanescope {
namespace {

// Events of one depth as a sorted view: start and end both ascend along it.
struct DepthSlice {
    const Lane& lane;
    uint32_t begin, end;  // positions in depth_order
    int64_t start(uint32_t pos) const { return lane.events.start_ns[lane.depth_order[pos]]; }
    int64_t finish(uint32_t pos) const { return lane.events.end_ns[lane.depth_order[pos]]; }

    // First position whose event ends after t (is visible from t on).
    uint32_t firstEndingAfter(int64_t t) const {
        uint32_t lo = begin, hi = end;
        while (lo < hi) {
            const uint32_t mid = lo + (hi - lo) / 2;
            if (finish(mid) > t)
                hi = mid;
            else
                lo = mid + 1;
        }
        return lo;
    }
    // First position in [from, end) whose event starts at or after t. Gallops from `from`
    // first: the answer is usually near, and nearby entries are already in cache.
    uint32_t firstStartingAt(uint32_t from, int64_t t) const {
        uint32_t lo = from, hi = from, step = 1;
        while (hi < end && start(hi) < t) {
            lo = hi + 1;
            hi = (end - hi > step) ? hi + step : end;
            step *= 2;
        }
        while (lo < hi) {
            const uint32_t mid = lo + (hi - lo) / 2;
            if (start(mid) >= t)
                hi = mid;
            else
                lo = mid + 1;
        }
        return lo;
    }
};

void buildDepth(const DepthSlice& s, uint8_t depth, const PixelMapping& map, GeometrySink& sink, double minPx) {
    const int64_t visibleEnd = map.end_ns();
    auto width = [&](uint32_t pos) { return map.toX(s.finish(pos)) - map.toX(s.start(pos)); };
    uint32_t pos = s.firstEndingAfter(map.begin_ns);
    while (pos < s.end && s.start(pos) < visibleEnd) {
        const double x0 = map.toX(s.start(pos));
        if (width(pos) >= minPx) {
            sink.box({float(x0), float(map.toX(s.finish(pos))), pos, 1, depth});
            ++pos;
            continue;
        }
        // A narrow event: take every event starting before the next boundary into one run,
        // except a last one that is wide enough to stand alone.
        const int64_t boundary = std::min(visibleEnd, std::max(s.start(pos) + 1, map.toTime(x0 + minPx)));
        uint32_t next = s.firstStartingAt(pos + 1, boundary);
        if (next - pos > 1 && width(next - 1) >= minPx) --next;
        const uint32_t count = next - pos;
        const double x1 = std::max(map.toX(s.finish(next - 1)), x0 + 1.0);
        sink.box({float(x0), float(x1), pos, count, depth});
        pos = next;
    }
}

void buildMarkers(const InstantColumns& in, const PixelMapping& map, GeometrySink& sink, double minPx) {
    const auto& t = in.time_ns;
    auto it = std::lower_bound(t.begin(), t.end(), map.begin_ns);
    const int64_t visibleEnd = map.end_ns();
    while (it != t.end() && *it < visibleEnd) {
        const double x = map.toX(*it);
        const auto next =
            std::lower_bound(it + 1, t.end(), std::min(visibleEnd, std::max(*it + 1, map.toTime(x + minPx))));
        sink.marker({float(x), static_cast<uint32_t>(it - t.begin()), static_cast<uint32_t>(next - it)});
        it = next;
    }
}

}  // namespace

void buildLaneGeometry(const Lane& lane, const PixelMapping& map, GeometrySink& sink, const LodOptions& options,
                       int max_depths) {
    if (map.width_px <= 0) return;
    const int depths = std::min<int>(lane.depth_count, max_depths);
    for (int d = 0; d < depths; ++d) {
        const DepthSlice slice{lane, lane.depth_begin[d], lane.depth_begin[d + 1]};
        buildDepth(slice, static_cast<uint8_t>(d), map, sink, options.min_box_px);
    }
    buildMarkers(lane.instants, map, sink, options.min_box_px);
}

std::vector<CounterColumn> buildCounterColumns(const std::vector<int64_t>& time_ns, const std::vector<double>& value,
                                               const PixelMapping& map) {
    std::vector<CounterColumn> columns(static_cast<size_t>(std::max(0, map.width_px)));
    auto it = std::upper_bound(time_ns.begin(), time_ns.end(), map.begin_ns);
    bool has = it != time_ns.begin();
    double last = has ? value[static_cast<size_t>(it - time_ns.begin()) - 1] : 0.0;
    for (int x = 0; x < map.width_px; ++x) {
        const int64_t columnEnd = map.toTime(x + 1);
        CounterColumn c{float(last), float(last), float(last), has};
        for (; it != time_ns.end() && *it < columnEnd; ++it) {
            const double v = value[static_cast<size_t>(it - time_ns.begin())];
            if (!c.has_value) c = {float(v), float(v), float(v), true};
            c.min = std::min(c.min, float(v));
            c.max = std::max(c.max, float(v));
            c.last = float(v);
            last = v;
            has = true;
        }
        columns[static_cast<size_t>(x)] = c;
    }
    return columns;
}

}  // namespace lanescope
