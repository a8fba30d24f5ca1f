#include <catch2/catch.hpp>
#include <random>

#include "model/LaneFreezer.h"
#include "tests/support/EventEnds.h"
#include "timeline/HitTest.h"
#include "timeline/LaneGeometry.h"

using namespace lanescope;

namespace {

struct Recorder final : GeometrySink {
    std::vector<Box> boxes;
    std::vector<MarkerBox> markers;
    void box(const Box& b) override { boxes.push_back(b); }
    void marker(const MarkerBox& m) override { markers.push_back(m); }
};

void add(Lane& lane, int64_t start, int64_t end) {
    lane.events.append(start, end, 0, kNoPayload, EventKind::NvtxRange);
}

// Parents of random length with 0..3 nested children each, plus random markers.
Lane randomLane(size_t parents, uint32_t seed) {
    std::mt19937_64 rng(seed);
    Lane lane;
    lane.kind = LaneKind::Nvtx;
    int64_t t = 0;
    for (size_t i = 0; i < parents; ++i) {
        t += 1 + rng() % 200;
        const int64_t length = 1 + rng() % (rng() % 10 == 0 ? 100000 : 300);
        add(lane, t, t + length);
        int64_t c = t;
        for (int k = int(rng() % 4); k > 0 && c < t + length - 1; --k) {
            const int64_t end = std::min<int64_t>(t + length, c + 1 + int64_t(rng() % (t + length - c)));
            add(lane, c, end);
            c = end;
        }
        t += length;
    }
    for (int i = 0; i < 500; ++i) {
        lane.instants.time_ns.push_back(int64_t(rng() % uint64_t(t)));
        lane.instants.name_id.push_back(0);
        lane.instants.payload.push_back(kNoPayload);
    }
    Diagnostics d;
    freezeLane(lane, d);
    return lane;
}

// Every event overlapping [begin, end) is in exactly one box; boxes tile each depth in order;
// an event out of sight is only in the first or last box of its depth (the merged box of the
// cell at an edge of the view).
void checkGeometry(const Lane& lane, const PixelMapping& map, const Recorder& rec, double minPx) {
    std::vector<int> covered(lane.events.size(), 0);
    std::vector<bool> atEdge(lane.events.size(), false);
    int lastDepth = -1;
    uint32_t expectedNext = 0;
    for (size_t i = 0; i < rec.boxes.size(); ++i) {
        const Box& b = rec.boxes[i];
        REQUIRE(b.count >= 1);
        CHECK(b.x1 > b.x0);
        if (b.depth != lastDepth) {
            CHECK(int(b.depth) > lastDepth);
            lastDepth = b.depth;
        } else {
            CHECK(b.first == expectedNext);  // no gap, no duplicate between neighbours
        }
        expectedNext = b.first + b.count;
        const bool edge = i == 0 || rec.boxes[i - 1].depth != b.depth || i + 1 == rec.boxes.size() ||
                          rec.boxes[i + 1].depth != b.depth;
        CHECK(b.start_ns == lane.events.start_ns[lane.eventAtPosition(b.first)]);
        CHECK(b.end_ns == lane.events.endNs(lane.eventAtPosition(b.first + b.count - 1)));
        for (uint32_t p = b.first; p < b.first + b.count; ++p) {
            const uint32_t e = lane.eventAtPosition(p);
            CHECK(lane.events.depth[e] == b.depth);
            ++covered[e];
            atEdge[e] = edge;
        }
        if (b.count > 1) CHECK(b.x1 - b.x0 <= 2 * minPx + 1.0);  // a merged run stays narrow
        CHECK(b.x0 < map.width_px);
        CHECK(b.x1 > 0);
    }
    const int64_t end = map.end_ns();
    for (size_t e = 0; e < lane.events.size(); ++e) {
        const bool visible = lane.events.endNs(e) > map.begin_ns && lane.events.start_ns[e] < end;
        INFO("event " << e << " [" << lane.events.start_ns[e] << ", " << lane.events.endNs(e) << ")");
        if (visible)
            CHECK(covered[e] == 1);
        else
            CHECK(covered[e] == (atEdge[e] ? covered[e] : 0));
        CHECK(covered[e] <= 1);
    }
    size_t markers = 0;
    for (const MarkerBox& m : rec.markers) markers += m.count;
    size_t visibleMarkers = 0;
    for (int64_t t : lane.instants.time_ns) visibleMarkers += t >= map.begin_ns && t < end;
    CHECK(markers == visibleMarkers);
}

}  // namespace

TEST_CASE("geometry covers every visible event exactly once at every zoom level") {
    const Lane lane = randomLane(20000, 7);
    const std::vector<int64_t> ends = endsOf(lane.events);
    const int64_t last = *std::max_element(ends.begin(), ends.end());
    for (int64_t span : {last, last / 3, int64_t(100000), int64_t(20000), int64_t(3000), int64_t(500), int64_t(37)}) {
        for (int64_t begin : {int64_t(0), last / 2 - span / 2, last - span}) {
            const PixelMapping map = PixelMapping::of(begin, begin + span, 997);
            Recorder rec;
            buildLaneGeometry(lane, map, rec);
            INFO("span " << span << " begin " << begin);
            checkGeometry(lane, map, rec, 3.0);
            // Level of detail: never many more boxes than pixels, whatever the event count.
            CHECK(rec.boxes.size() <= size_t(lane.depth_count) * (997 / 3 + 2) * 2);
        }
    }
}

TEST_CASE("fully zoomed in, every event is its own box") {
    const Lane lane = randomLane(300, 11);
    const PixelMapping map = PixelMapping::of(0, lane.events.endNs(lane.events.size() - 1) + 100000, 1);
    PixelMapping fine = map;
    fine.ns_per_px = 0.01;  // 100 px per ns
    fine.width_px = 1 << 30;
    Recorder rec;
    buildLaneGeometry(lane, fine, rec);
    CHECK(rec.boxes.size() == lane.events.size());
    for (const Box& b : rec.boxes) CHECK(b.count == 1);
}

TEST_CASE("events touching the view's edges: an end at the left edge or a start at the right edge is not visible") {
    Lane lane;
    add(lane, 0, 100);      // ends exactly at the left edge
    add(lane, 150, 250);    // straddles the left edge
    add(lane, 900, 1100);   // straddles the right edge
    add(lane, 1100, 1200);  // starts exactly at the right edge
    Diagnostics d;
    freezeLane(lane, d);
    const PixelMapping map = PixelMapping::of(200, 1100, 900);
    Recorder rec;
    buildLaneGeometry(lane, map, rec);
    REQUIRE(rec.boxes.size() == 2);
    CHECK(lane.events.start_ns[rec.boxes[0].event(lane)] == 150);
    CHECK(lane.events.start_ns[rec.boxes[1].event(lane)] == 900);
    CHECK(rec.boxes[0].x0 == Approx(-50));
    CHECK(rec.boxes[1].x1 == Approx(900));
}

TEST_CASE("hit testing: empty, inside, edges, thin boxes, out of range") {
    CHECK(boxAt({}, 0, 10) == nullptr);
    std::vector<Box> boxes = {{10, 20, 0, 1, 0}, {20, 30, 1, 1, 0}, {50, 50.5f, 2, 4, 0}, {12, 18, 3, 1, 1}};
    CHECK(boxAt(boxes, 0, 10)->first == 0);  // left edge is inside
    CHECK(boxAt(boxes, 0, 20)->first == 1);  // right edge belongs to the next box
    CHECK(boxAt(boxes, 0, 29.9)->first == 1);
    CHECK(boxAt(boxes, 0, 30.5) == nullptr);  // past a wide box: nothing
    CHECK(boxAt(boxes, 0, 51)->first == 2);   // a thin merged box is hit within its target width
    CHECK(boxAt(boxes, 0, 55) == nullptr);
    CHECK(boxAt(boxes, 1, 15)->first == 3);
    CHECK(boxAt(boxes, 1, 25) == nullptr);
    CHECK(boxAt(boxes, 2, 15) == nullptr);  // no such depth
    CHECK(boxAt(boxes, -1, 15) == nullptr);
    CHECK(boxAt(boxes, 0, -5) == nullptr);
}

TEST_CASE("counter columns carry their max and the value holding from before") {
    const std::vector<int64_t> t = {0, 10, 11, 12, 50};
    const std::vector<double> v = {1, 5, 2, 3, 7};
    const auto cols = buildCounterColumns(t, v, PixelMapping::of(5, 65, 6));  // 10 ns per px
    REQUIRE(cols.size() == 6);
    CHECK(cols[0].has_value);
    CHECK(cols[0].max == 5);  // [5,15): holds 1, then 5, 2, 3
    CHECK(cols[1].max == 3);  // [15,25): nothing new, 3 holds
    CHECK(cols[3].max == 3);  // [35,45): 3 still holds
    CHECK(cols[4].max == 7);  // [45,55): 3 holds, then 7
    CHECK(cols[5].max == 7);  // [55,65): 7 holds
    const auto before = buildCounterColumns(t, v, PixelMapping::of(-30, -10, 2));
    CHECK_FALSE(before[0].has_value);
}
