#include "timeline/LaneGeometry.h"

#include <algorithm>

namespace lanescope {
namespace {

// What the geometry of one view needs: its mapping, the merge cells, the wide test.
struct View {
    const PixelMapping& map;
    int shift;  // cells of 2^shift ns
    double min_px;
    int64_t visible_end;
    int64_t cell() const { return int64_t(1) << shift; }
    int64_t cellStart(int64_t t) const { return (t >> shift) << shift; }
    bool wide(int64_t start, int64_t end) const {
        return end - start >= cell() && map.toX(end) - map.toX(start) >= min_px;
    }
    void emit(GeometrySink& sink, uint32_t first, uint32_t count, uint8_t depth, int64_t start, int64_t end,
              uint32_t color = 0) const {
        const BoxPixels px = boxPixels(map, start, end);
        sink.box({px.x0, px.x1, first, count, depth, start, end, color});
    }
};

// First index in [lo, hi) whose key is >= t, keys ascending, galloping from lo: the answer is
// usually near, and nearby entries are already in cache.
template <typename Key>
uint32_t gallopTo(uint32_t lo, uint32_t hi, int64_t t, const Key& key) {
    uint32_t from = lo, to = lo, step = 1;
    while (to < hi && key(to) < t) {
        from = to + 1;
        to = (hi - to > step) ? to + step : hi;
        step *= 2;
    }
    while (from < to) {
        const uint32_t mid = from + (to - from) / 2;
        if (key(mid) >= t)
            to = mid;
        else
            from = mid + 1;
    }
    return from;
}

// First index in [lo, hi) whose key is > t, keys ascending (a binary search).
template <typename Key>
uint32_t firstAbove(uint32_t lo, uint32_t hi, int64_t t, const Key& key) {
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (key(mid) > t)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

// The boxes of one depth from its events, positions [begin, end) of the depth-grouped order
// (start and end both ascend along them).
void depthFromEvents(const Lane& lane, uint32_t begin, uint32_t end, uint8_t depth, const View& v, GeometrySink& sink) {
    auto start = [&](uint32_t p) { return lane.events.start_ns[lane.eventAtPosition(p)]; };
    auto finish = [&](uint32_t p) { return lane.events.endNs(lane.eventAtPosition(p)); };
    uint32_t pos = firstAbove(begin, end, v.map.begin_ns, finish);
    if (pos < end && !v.wide(start(pos), finish(pos)))  // its box starts with its cell's first event
        pos = gallopTo(begin, pos, v.cellStart(start(pos)), start);
    while (pos < end && start(pos) < v.visible_end) {
        if (v.wide(start(pos), finish(pos))) {
            v.emit(sink, pos, 1, depth, start(pos), finish(pos));
            ++pos;
            continue;
        }
        uint32_t next = gallopTo(pos + 1, end, v.cellStart(start(pos)) + v.cell(), start);
        if (next - pos > 1 && v.wide(start(next - 1), finish(next - 1))) --next;
        v.emit(sink, pos, next - pos, depth, start(pos), finish(next - 1));
        pos = next;
    }
}

// The same boxes from a summary level whose cells divide the view's (level.cell_shift <=
// v.shift): a merged box is a run of whole units, a wide event a unit of its own.
void depthFromSummary(const SummaryLevel& level, uint32_t depthEnd, uint8_t depth, const View& v, GeometrySink& sink) {
    const uint32_t n = uint32_t(level.size());
    auto start = [&](uint32_t u) { return level.start_ns[u]; };
    auto finish = [&](uint32_t u) { return level.end_ns[u]; };
    auto firstAfter = [&](uint32_t u) { return u + 1 < n ? level.first[u + 1] : depthEnd; };
    auto wideUnit = [&](uint32_t u) { return firstAfter(u) - level.first[u] == 1 && v.wide(start(u), finish(u)); };
    uint32_t u = firstAbove(0, n, v.map.begin_ns, finish);
    if (u < n && !wideUnit(u)) u = gallopTo(0, u, v.cellStart(start(u)), start);
    while (u < n && start(u) < v.visible_end) {
        if (wideUnit(u)) {
            v.emit(sink, level.first[u], 1, depth, start(u), finish(u), level.color[u]);
            ++u;
            continue;
        }
        uint32_t next = gallopTo(u + 1, n, v.cellStart(start(u)) + v.cell(), start);
        if (next - u > 1 && wideUnit(next - 1)) --next;
        v.emit(sink, level.first[u], firstAfter(next - 1) - level.first[u], depth, start(u), finish(next - 1),
               level.color[u]);
        u = next;
    }
}

// The coarsest level whose cells divide the view's, if any.
const SummaryLevel* levelFor(const DepthSummary& summary, int shift) {
    const SummaryLevel* best = nullptr;
    for (const SummaryLevel& level : summary.levels)
        if (level.cell_shift <= shift) best = &level;
    return best;
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

int mergeShift(const PixelMapping& map, const LodOptions& options) {
    const double cellNs = options.min_box_px * map.ns_per_px;
    int shift = 0;
    while (shift < 62 && double(int64_t(1) << (shift + 1)) <= cellNs) ++shift;
    return shift;
}

void buildLaneBoxes(const Lane& lane, const PixelMapping& map, GeometrySink& sink, const LodOptions& options,
                    int max_depths, const LaneSummary* summary) {
    if (map.width_px <= 0) return;
    const View view{map, mergeShift(map, options), options.min_box_px, map.end_ns()};
    const int depths = std::min<int>(lane.depth_count, max_depths);
    for (int d = 0; d < depths; ++d) {
        const uint32_t begin = lane.depth_begin[d], end = lane.depth_begin[d + 1];
        const SummaryLevel* level =
            summary && size_t(d) < summary->depths.size() ? levelFor(summary->depths[d], view.shift) : nullptr;
        if (level)
            depthFromSummary(*level, end, uint8_t(d), view, sink);
        else
            depthFromEvents(lane, begin, end, uint8_t(d), view, sink);
    }
}

void buildLaneMarkers(const Lane& lane, const PixelMapping& map, GeometrySink& sink, const LodOptions& options) {
    if (map.width_px > 0) buildMarkers(lane.instants, map, sink, options.min_box_px);
}

void buildLaneGeometry(const Lane& lane, const PixelMapping& map, GeometrySink& sink, const LodOptions& options,
                       int max_depths, const LaneSummary* summary) {
    buildLaneBoxes(lane, map, sink, options, max_depths, summary);
    buildLaneMarkers(lane, map, sink, options);
}

std::vector<CounterColumn> buildCounterColumns(std::span<const int64_t> time_ns, std::span<const double> value,
                                               const PixelMapping& map, const CounterSummary* summary) {
    std::vector<CounterColumn> columns(static_cast<size_t>(std::max(0, map.width_px)));
    const uint32_t n = uint32_t(time_ns.size());
    auto time = [&](uint32_t i) { return time_ns[i]; };
    uint32_t i = firstAbove(0, n, map.begin_ns, time);
    bool has = i > 0;
    double last = has ? value[i - 1] : 0.0;
    for (int x = 0; x < map.width_px; ++x) {
        const uint32_t next = gallopTo(i, n, map.toTime(x + 1), time);  // the samples in this column
        CounterColumn c{float(last), has};
        if (next > i) {
            if (!c.has_value) c = {float(value[i]), true};
            if (summary) {
                summary->max(value, i, next, c.max);
            } else {
                for (uint32_t k = i; k < next; ++k) c.max = std::max(c.max, float(value[k]));
            }
            last = value[next - 1];
            has = true;
        }
        columns[static_cast<size_t>(x)] = c;
        i = next;
    }
    return columns;
}

}  // namespace lanescope
