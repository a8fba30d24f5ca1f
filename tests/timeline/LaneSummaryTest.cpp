// The boxes drawn from a lane's summary are the boxes drawn from its events, at every zoom.
#include <catch2/catch.hpp>
#include <random>

#include "TestPaths.h"
#include "importers/ImportHelpers.h"
#include "model/LaneFreezer.h"
#include "tests/support/SyntheticReport.h"
#include "timeline/LaneGeometry.h"
#include "timeline/Palette.h"
#include "timeline/ReportSummaries.h"

using namespace lanescope;

namespace {

struct Boxes final : GeometrySink {
    std::vector<Box> boxes;
    void box(const Box& b) override { boxes.push_back(b); }
    void marker(const MarkerBox&) override {}
};

bool same(const Box& a, const Box& b) {
    return a.x0 == b.x0 && a.x1 == b.x1 && a.first == b.first && a.count == b.count && a.depth == b.depth &&
           a.start_ns == b.start_ns && a.end_ns == b.end_ns;
}

// The colour of an event for these tests: its start and name folded, never 0.
uint32_t colorKey(const Lane& lane, uint32_t event) {
    return 0xFF000000u | uint32_t(lane.events.start_ns[event] * 31 + lane.events.name_id[event]) >> 8;
}
LaneSummary summarize(const Lane& lane, uint32_t minEvents = 4096) {
    return buildLaneSummary(
        lane, [&](uint32_t e) { return colorKey(lane, e); }, minEvents);
}

// How many (depth, view) pairs of the lane were drawn from a summary level rather than events.
size_t levelsUsed(const LaneSummary& summary, const PixelMapping& map) {
    size_t used = 0;
    for (const DepthSummary& depth : summary.depths)
        for (const SummaryLevel& level : depth.levels)
            if (level.cell_shift <= mergeShift(map)) {
                ++used;
                break;
            }
    return used;
}

// Compares the two ways at spans from 100 times the whole lane (zoomed out past it: coarse
// levels) down to 1/20000 of it, at the start, middle and end and at odd offsets; returns how
// many depth-views used a summary level.
size_t compareEverywhere(const Lane& lane, const LaneSummary& summary, int64_t begin, int64_t end,
                         const std::function<uint32_t(const Lane&, uint32_t)>& colors = colorKey) {
    size_t used = 0;
    const int64_t whole = std::max<int64_t>(end - begin, 1);
    for (double scale : {100.0, 10.0, 1.0, 1 / 3.0, 1 / 7.0, 1 / 50.0, 1 / 400.0, 1 / 3000.0, 1 / 20000.0}) {
        const int64_t span = std::max<int64_t>(int64_t(double(whole) * scale), 10);
        for (int64_t at : {begin - span / 5, begin + whole / 2 - span / 2 + 13, end - span + 7}) {
            for (int width : {1500, 997}) {
                const PixelMapping map = PixelMapping::of(at, at + span, width);
                Boxes fromEvents, fromSummary;
                buildLaneBoxes(lane, map, fromEvents);
                buildLaneBoxes(lane, map, fromSummary, {}, 256, &summary);
                INFO("span " << span << " at " << at << " width " << width);
                REQUIRE(fromEvents.boxes.size() == fromSummary.boxes.size());
                for (size_t i = 0; i < fromEvents.boxes.size(); ++i) {
                    INFO("box " << i);
                    REQUIRE(same(fromEvents.boxes[i], fromSummary.boxes[i]));
                    // A box from the summary carries its first event's colour, or none (0) from events.
                    const Box& b = fromSummary.boxes[i];
                    if (b.color) REQUIRE(b.color == colors(lane, b.event(lane)));
                }
                used += levelsUsed(summary, map);
            }
        }
    }
    return used;
}

void add(Lane& lane, int64_t start, int64_t end) { lane.events.append(start, end, 0, kNoPayload, EventKind::Kernel); }

}  // namespace

TEST_CASE("summary boxes equal event boxes: random lane of bursts, gaps, long and zero-length events") {
    std::mt19937_64 rng(42);
    Lane lane;
    lane.kind = LaneKind::Nvtx;
    int64_t t = -5000000;  // negative times too: cells are floored
    for (int i = 0; i < 200000; ++i) {
        const uint64_t r = rng() % 100;
        t += r < 2 ? int64_t(rng() % 50000000) : int64_t(rng() % 3000);  // rare long gaps
        const int64_t length = r < 5 ? int64_t(rng() % 20000000) : r < 10 ? 0 : int64_t(1 + rng() % 2000);
        add(lane, t, t + length);
        // A nested child now and then (depth 1).
        if (length > 10 && rng() % 3 == 0) add(lane, t + 1, t + 1 + int64_t(rng() % uint64_t(length - 1)));
        t += length;
    }
    Diagnostics d;
    freezeLane(lane, d);
    REQUIRE(lane.depth_count >= 2);
    const LaneSummary summary = summarize(lane);
    REQUIRE(!summary.depths[0].levels.empty());
    CHECK(compareEverywhere(lane, summary, lane.events.start_ns.front(), t) > 20);
    // Memory: at most a tenth of what the lane's columns take.
    CHECK(summary.memoryBytes() * 10 <= lane.events.memoryBytes());
}

TEST_CASE("summary boxes equal event boxes on every lane of a corpus report") {
    const auto report = test::importAsViewed(test::dataFile("nsys-2025.3/cpu_1gpu.sqlite"));
    size_t used = 0;
    for (const Lane& lane : report->lanes) {
        INFO(laneKindName(lane.kind) << " lane of " << lane.events.size() << " events");
        // Summaries of every depth down to 64 events, so that this small report's lanes have some.
        used += compareEverywhere(lane, summarize(lane, 64), report->meta.begin_ns, report->meta.end_ns);
    }
    CHECK(used > 50);
}

TEST_CASE("summary boxes equal event boxes on a synthetic DDP report, summaries as the view builds them") {
    const auto dir = test::tempDir("lane-summary");
    const auto file = dir / "synthetic.sqlite";
    std::filesystem::remove(file);
    bench::writeSyntheticReport(file, 300000);
    const auto report = test::importAsViewed(file);
    std::filesystem::remove_all(dir);
    const ReportSummaries& summaries = ReportSummaries::of(*report);
    summaries.buildAll(2);
    EventColors palette(*report);
    auto colors = [&](const Lane& lane, uint32_t event) { return palette.color(lane, event); };
    size_t used = 0;
    for (size_t i = 0; i < report->lanes.size(); ++i)
        used +=
            compareEverywhere(report->lanes[i], summaries.lane(i), report->meta.begin_ns, report->meta.end_ns, colors);
    CHECK(used > 20);
    CHECK(summaries.memoryBytes() * 10 <= report->memoryBytes());
}

TEST_CASE("counter columns from the summary equal those from the samples") {
    std::mt19937_64 rng(5);
    std::vector<int64_t> time;
    std::vector<double> value;
    int64_t t = 0;
    for (int i = 0; i < 100000; ++i) {
        t += int64_t(rng() % (i % 5000 < 100 ? 100000 : 300));  // dense stretches and sparse ones
        time.push_back(t);
        value.push_back(double(int64_t(rng() % 2000000) - 1000000) / 7.0);
    }
    const CounterSummary summary = buildCounterSummary(value);
    CHECK(summary.min_value == *std::min_element(value.begin(), value.end()));
    CHECK(summary.max_value == *std::max_element(value.begin(), value.end()));
    for (int64_t divisor : {1, 5, 100, 5000}) {
        const int64_t span = t / divisor;
        for (int64_t at : {-span / 3, t / 2 - span / 2, t - span + 1}) {
            const PixelMapping map = PixelMapping::of(at, at + span, 1200);
            const auto plain = buildCounterColumns(time, value, map);
            const auto fast = buildCounterColumns(time, value, map, &summary);
            REQUIRE(plain.size() == fast.size());
            for (size_t x = 0; x < plain.size(); ++x) {
                INFO("divisor " << divisor << " at " << at << " column " << x);
                REQUIRE(plain[x].has_value == fast[x].has_value);
                REQUIRE(plain[x].max == fast[x].max);
            }
        }
    }
    CHECK(summary.memoryBytes() * 10 <= value.capacity() * (sizeof(double) + sizeof(int64_t)));
}

TEST_CASE("counter columns from the summary equal those from the samples on a corpus report's GPU metrics") {
    const auto report = test::importAsViewed(test::dataFile("nsys-2025.3/train_metrics.sqlite"));
    REQUIRE(!report->counters.empty());
    const int64_t whole = report->meta.end_ns - report->meta.begin_ns;
    size_t columns = 0;
    for (const Counter& counter : report->counters) {
        const CounterSummary summary = buildCounterSummary(counter.value);
        for (int64_t divisor : {1, 7, 300}) {
            const int64_t span = whole / divisor;
            const PixelMapping map =
                PixelMapping::of(report->meta.begin_ns + whole / 3, report->meta.begin_ns + whole / 3 + span, 1500);
            const auto plain = buildCounterColumns(counter.time_ns, counter.value, map);
            const auto fast = buildCounterColumns(counter.time_ns, counter.value, map, &summary);
            for (size_t x = 0; x < plain.size(); ++x) {
                REQUIRE(plain[x].has_value == fast[x].has_value);
                REQUIRE(plain[x].max == fast[x].max);
                columns += plain[x].has_value;
            }
        }
    }
    CHECK(columns > 1000);
}
