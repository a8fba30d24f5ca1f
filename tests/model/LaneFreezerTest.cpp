#include <catch2/catch.hpp>

#include "model/LaneFreezer.h"
#include "tests/support/ColumnEquality.h"
#include "tests/support/EventEnds.h"

using namespace lanescope;

namespace {
void add(Lane& lane, int64_t start, int64_t end, uint32_t name) {
    lane.events.append(start, end, name, kNoPayload, EventKind::NvtxRange);
}
}  // namespace

TEST_CASE("freezeLane sorts by start then longer first and assigns nesting depths") {
    Lane lane;
    lane.kind = LaneKind::Nvtx;
    // Pop order, as nsys writes push/pop ranges: children before parents.
    add(lane, 20, 30, 3);   // child of 10..100
    add(lane, 40, 90, 4);   // child of 10..100
    add(lane, 50, 60, 5);   // grandchild
    add(lane, 10, 100, 2);  // parent
    add(lane, 10, 15, 6);   // starts with the parent, shorter: after it
    Diagnostics diagnostics;
    freezeLane(lane, diagnostics);
    const auto& ev = lane.events;
    CHECK(ev.start_ns == std::vector<int64_t>{10, 10, 20, 40, 50});
    CHECK(endsOf(ev) == std::vector<int64_t>{100, 15, 30, 90, 60});
    CHECK(ev.name_id == std::vector<uint32_t>{2, 6, 3, 4, 5});
    CHECK(ev.depth == std::vector<uint8_t>{0, 1, 1, 1, 2});
    CHECK(lane.depth_count == 3);
    CHECK(diagnostics.empty());
    CHECK(lane.depth_begin == std::vector<uint32_t>{0, 1, 4, 5});
    CHECK(lane.depth_order == std::vector<uint32_t>{0, 1, 2, 3, 4});
}

TEST_CASE("freezeLane puts an overlapping non-nested event one deeper and counts it") {
    Lane lane;
    lane.kind = LaneKind::Nvtx;
    add(lane, 0, 50, 1);
    add(lane, 40, 80, 2);  // overlaps the first without nesting
    add(lane, 60, 70, 3);  // inside the second only
    Diagnostics diagnostics;
    freezeLane(lane, diagnostics);
    CHECK(lane.events.depth == std::vector<uint8_t>{0, 1, 2});
    CHECK(diagnostics["nvtx_overlap_without_nesting"] == 1);
    CHECK(lane.depth_begin == std::vector<uint32_t>{0, 1, 2, 3});
}

TEST_CASE("freezeLane keeps GPU overlaps silent and sorts instants") {
    Lane lane;
    lane.kind = LaneKind::GpuStream;
    add(lane, 0, 50, 1);
    add(lane, 40, 80, 2);
    lane.instants.time_ns = {30, 10, 20};
    lane.instants.name_id = {3, 1, 2};
    lane.instants.payload = {kNoPayload, kNoPayload, kNoPayload};
    Diagnostics diagnostics;
    freezeLane(lane, diagnostics);
    CHECK(diagnostics.empty());
    CHECK(lane.instants.time_ns == std::vector<int64_t>{10, 20, 30});
    CHECK(lane.instants.name_id == std::vector<uint32_t>{1, 2, 3});
}

TEST_CASE("freezeLane keeps no depth order for a lane of one depth: positions are event indexes") {
    Lane lane;
    lane.kind = LaneKind::CudaApi;
    add(lane, 30, 40, 3);
    add(lane, 0, 10, 1);
    add(lane, 10, 20, 2);  // touches the one before: not nested, same depth
    Diagnostics diagnostics;
    freezeLane(lane, diagnostics);
    CHECK(lane.depth_count == 1);
    CHECK(lane.depth_order.empty());
    CHECK(lane.depth_begin == std::vector<uint32_t>{0, 3});
    CHECK(lane.isFrozen());
    const DepthEvents top = lane.atDepth(0);
    CHECK(std::vector<uint32_t>(top.begin(), top.end()) == std::vector<uint32_t>{0, 1, 2});
    CHECK(lane.eventAtPosition(2) == 2);
    const DepthEvents hit = lane.overlapping(0, 15, 35);
    CHECK(std::vector<uint32_t>(hit.begin(), hit.end()) == std::vector<uint32_t>{1, 2});
    CHECK(lane.eventAt(0, 35) == 2u);
    CHECK_FALSE(lane.eventAt(0, 25).has_value());
    CHECK(lane.atDepth(1).empty());
}

TEST_CASE("a lane of several depths finds its events through the depth order") {
    Lane lane;
    lane.kind = LaneKind::Nvtx;
    add(lane, 0, 100, 1);
    add(lane, 10, 20, 2);
    add(lane, 30, 40, 3);
    add(lane, 200, 300, 4);
    Diagnostics diagnostics;
    freezeLane(lane, diagnostics);
    CHECK(lane.depth_order == std::vector<uint32_t>{0, 3, 1, 2});
    const DepthEvents inner = lane.overlapping(1, 25, 1000);
    CHECK(std::vector<uint32_t>(inner.begin(), inner.end()) == std::vector<uint32_t>{2});
    CHECK(lane.eventAt(0, 250) == 3u);  // the second outermost event, last by start
    CHECK(lane.eventAtPosition(1) == 3);
}

TEST_CASE("events of 4.29 s or more keep their durations through append, sorting and appendAll") {
    constexpr int64_t kSecond = 1'000'000'000;
    Lane lane;
    lane.kind = LaneKind::Nvtx;
    add(lane, 50, 60, 3);
    add(lane, 0, 10 * kSecond, 1);                    // long: outermost
    add(lane, 5, 5 + int64_t{kLongDuration}, 2);      // exactly the first long duration
    add(lane, 6, 6 + int64_t{kLongDuration} - 1, 4);  // the longest that fits in 32 bits
    CHECK(lane.events.long_durations.size() == 2);
    Diagnostics diagnostics;
    freezeLane(lane, diagnostics);
    const IntervalColumns& ev = lane.events;
    CHECK(ev.name_id == std::vector<uint32_t>{1, 2, 4, 3});
    CHECK(endsOf(ev) ==
          std::vector<int64_t>{10 * kSecond, 5 + int64_t{kLongDuration}, 6 + int64_t{kLongDuration} - 1, 60});
    CHECK(ev.durationNs(0) == 10 * kSecond);
    REQUIRE(ev.long_durations.size() == 2);
    CHECK(ev.long_durations[0].index == 0);
    CHECK(ev.long_durations[1].index == 1);
    CHECK(ev.depth == std::vector<uint8_t>{0, 1, 2, 3});
    CHECK(diagnostics.empty());

    IntervalColumns more;
    more.append(1, 2, 9, kNoPayload, EventKind::NvtxRange);
    more.append(3, 3 + 6 * kSecond, 8, kNoPayload, EventKind::NvtxRange);
    IntervalColumns all = ev;
    all.appendAll(std::move(more));
    CHECK(more.size() == 0);
    REQUIRE(all.size() == 6);
    CHECK(all.endNs(4) == 2);
    CHECK(all.endNs(5) == 3 + 6 * kSecond);
    CHECK(all.endNs(0) == 10 * kSecond);
    CHECK(all.long_durations.back().index == 5);
}

TEST_CASE("freezeCounter sorts samples by time, keeping equal times in order") {
    Counter c;
    c.time_ns = {30, 10, 20, 10};
    c.value = {3, 1, 2, 1.5};
    freezeCounter(c);
    CHECK(c.time_ns == std::vector<int64_t>{10, 10, 20, 30});
    CHECK(c.value == std::vector<double>{1, 1.5, 2, 3});
}

TEST_CASE("setTimeSpan covers events, instants and counter samples") {
    Report r;
    Lane lane;
    add(lane, 100, 500, 1);
    add(lane, 200, 900, 2);  // ends last although it is not the last event by start
    lane.instants.time_ns = {50};
    lane.instants.name_id = {0};
    lane.instants.payload = {kNoPayload};
    Diagnostics d;
    freezeLane(lane, d);
    r.lanes.push_back(std::move(lane));
    Counter c;
    c.time_ns = {60, 950};
    c.value = {1, 2};
    r.counters.push_back(c);
    setTimeSpan(r);
    CHECK(r.meta.begin_ns == 50);
    CHECK(r.meta.end_ns == 950);
    Report empty;
    empty.meta.begin_ns = 7;
    setTimeSpan(empty);
    CHECK(empty.meta.begin_ns == 7);  // nothing to span: left as it was
}
