#include <catch2/catch.hpp>

#include "model/EventOrder.h"
#include "model/EventRows.h"
#include "model/EventTableText.h"
#include "support/TinyReport.h"

using namespace lanescope;
using lanescope::test::TinyReport;

namespace {

// A nested NVTX lane, a GPU stream and a memcpy on it.
struct RowsFixture {
    TinyReport t;
    uint32_t nvtx = 0, stream = 0;

    RowsFixture() {
        const int32_t p = t.process(100, "python3");
        const int32_t th = t.thread(p, 101, "main");
        const int32_t g = t.gpu(0, "GPU");
        nvtx = t.cpuLane(LaneKind::Nvtx, th, "NVTX");
        stream = t.gpuLane(LaneKind::GpuStream, p, g, 7, "Stream 7");
        const uint32_t n = t.nvtx({});
        t.event(nvtx, 10, 100, "step", EventKind::NvtxRange, n);          // #0, depth 0
        t.event(nvtx, 20, 60, "forward", EventKind::NvtxRange, n);        // #1, depth 1
        t.event(nvtx, 30, 40, "conv", EventKind::NvtxRange, n);           // #2, depth 2
        t.event(nvtx, 70, 90, "backward", EventKind::NvtxRange, n);       // #3, depth 1
        t.event(nvtx, 120, 130, "step", EventKind::NvtxRange, n);         // #4
        t.event(stream, 25, 35, "gemm", EventKind::Kernel, t.kernel(1));  // #0
        t.event(stream, 45, 47, "Relu", EventKind::Kernel, t.kernel(2));  // #1
        t.event(stream, 50, 80, "gemm", EventKind::Kernel, t.kernel(3));  // #2
        t.freeze();
    }
    std::vector<uint32_t> indexes(const EventRows& rows) const {
        std::vector<uint32_t> out;
        for (size_t r = 0; r < rows.size(); ++r) out.push_back(rows.at(r).index);
        return out;
    }
};

}  // namespace

TEST_CASE_METHOD(RowsFixture, "EventRows of one lane: the events reaching into the range, then those starting in it") {
    const EventRows rows = EventRows::collect({{&t.r, nvtx, 0}}, 35, 75);
    // step and forward and conv started before 35 and are still running; backward starts inside.
    CHECK(indexes(rows) == std::vector<uint32_t>{0, 1, 2, 3});
    CHECK(rows.rowOf(&t.r, nvtx, 3) == std::optional<size_t>(3));
    CHECK_FALSE(rows.rowOf(&t.r, nvtx, 4).has_value());
    CHECK_FALSE(rows.rowOf(&t.r, stream, 0).has_value());
    // Ends exactly at the range's begin: not in it.
    CHECK(indexes(EventRows::collect({{&t.r, nvtx, 0}}, 100, 125)) == std::vector<uint32_t>{4});
    CHECK(EventRows::collect({{&t.r, nvtx, 0}}, 200, 300).empty());
}

TEST_CASE_METHOD(RowsFixture, "EventRows of several lanes are merged in start order, offsets applied") {
    const EventRows rows = EventRows::collect({{&t.r, nvtx, 0}, {&t.r, stream, 0}}, 0, 1000);
    REQUIRE(rows.size() == 8);
    std::vector<int64_t> starts;
    for (size_t r = 0; r < rows.size(); ++r) starts.push_back(rows.startNs(rows.at(r)));
    CHECK(starts == std::vector<int64_t>{10, 20, 25, 30, 45, 50, 70, 120});
    CHECK(rows.rowOf(&t.r, stream, 1) == std::optional<size_t>(4));
    // The stream 1000 ns later on the shared timeline: after every NVTX range.
    const EventRows shifted = EventRows::collect({{&t.r, nvtx, 0}, {&t.r, stream, 1000}}, 0, 2000);
    CHECK(shifted.startNs(shifted.at(5)) == 1025);
    CHECK(shifted.at(5) == SourcedEvent{1, 0});
}

TEST_CASE_METHOD(RowsFixture, "sortEventRows and filterEventRows") {
    const EventRows rows = EventRows::collect({{&t.r, nvtx, 0}, {&t.r, stream, 0}}, 0, 1000);
    auto durations = [&](const EventRowOrder& order) {
        std::vector<int64_t> out;
        for (uint32_t p : order) out.push_back(rows.endNs(rows.at(p)) - rows.startNs(rows.at(p)));
        return out;
    };
    CHECK(durations(sortEventRows(rows, nullptr, EventField::Duration, true)) ==
          std::vector<int64_t>{90, 40, 30, 20, 10, 10, 10, 2});
    CHECK(durations(sortEventRows(rows, nullptr, EventField::Duration, false)) ==
          std::vector<int64_t>{2, 10, 10, 10, 20, 30, 40, 90});
    // Names alphabetically (byte order: capitals first); ties in start order.
    std::vector<std::string> names;
    for (uint32_t p : sortEventRows(rows, nullptr, EventField::Name, false))
        names.push_back(eventCellText(rows, rows.at(p), EventField::Name));
    CHECK(names == std::vector<std::string>{"Relu", "backward", "conv", "forward", "gemm", "gemm", "step", "step"});
    // Kernels only have a grid: NVTX rows last either way.
    const EventRowOrder byGrid = sortEventRows(rows, nullptr, EventField::Grid, true);
    CHECK(rows.at(byGrid[0]).source == 1);
    CHECK(rows.at(byGrid[2]).source == 1);
    CHECK(rows.at(byGrid[7]).source == 0);

    const EventRowOrder gemm = filterEventRows(rows, FindQuery{"GEMM", false, false});
    CHECK(gemm == EventRowOrder{2, 5});
    CHECK(filterEventRows(rows, FindQuery{"^(step|conv)$", true, false}) == EventRowOrder{0, 3, 7});
    std::string error;
    CHECK(filterEventRows(rows, FindQuery{"(", true, false}, &error).empty());
    CHECK_FALSE(error.empty());
    // Sorting a filtered subset keeps to it.
    CHECK(sortEventRows(rows, &gemm, EventField::Duration, true) == EventRowOrder{5, 2});
}

TEST_CASE("formatTimestamp keeps every nanosecond") {
    CHECK(formatTimestamp(1234567890) == "1.234567890 s");
    CHECK(formatTimestamp(12) == "0.000000012 s");
    CHECK(formatTimestamp(-1000) == "-0.000001000 s");
}
