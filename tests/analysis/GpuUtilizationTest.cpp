// GPU utilization on hand-built reports: the GUI chart's union series and nsys's gpu_time_util
// (sum of overlaps, chunking, coalescing, rounding, overhead) on cases the corpus lacks.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <vector>

#include "analysis/GpuUtilization.h"
#include "support/TinyReport.h"

using namespace lanescope;
using lanescope::test::TinyReport;

namespace {

RuleOptions opts(std::initializer_list<std::pair<const std::string, std::string>> values) { return {values}; }

// GPU 0 (two streams), GPU 1, and GPU 0's NCCL row. Stream 1: kernel [0,60), memcpy
// [150,175); stream 2: kernel [20,80) overlapping the first; GPU 1: kernel [100,200);
// NCCL row (copies of kernels, never counted): [100,200).
struct ChartFixture {
    TinyReport t;
    int32_t g0 = 0, g1 = 0;
    ChartFixture() {
        const int32_t p = t.process(1, "train");
        g0 = t.gpu(0, "GPU 0");
        g1 = t.gpu(1, "GPU 1");
        const uint32_t s1 = t.gpuLane(LaneKind::GpuStream, p, g0, 1, "Stream 1");
        const uint32_t s2 = t.gpuLane(LaneKind::GpuStream, p, g0, 2, "Stream 2");
        const uint32_t s3 = t.gpuLane(LaneKind::GpuStream, p, g1, 1, "Stream 1");
        const uint32_t nccl = t.gpuLane(LaneKind::Nccl, p, g0, -1, "NCCL");
        t.event(s1, 0, 60, "k1", EventKind::Kernel, t.kernel(1));
        t.event(s1, 150, 175, "[CUDA memcpy Host-to-Device]", EventKind::Memcpy, t.memcpy({1000, 2}));
        t.event(s2, 20, 80, "k2", EventKind::Kernel, t.kernel(3));
        t.event(s3, 100, 200, "k3", EventKind::Kernel, t.kernel(4));
        t.event(nccl, 100, 200, "ncclKernel", EventKind::Kernel, t.kernel(5));
        t.freeze();
    }
};

// One process (pid 100), one GPU (device 0), two streams with contexts 1 and 2. Span
// [1000, 2000); an operation at start 0 is ignored (nsys keeps start > 0 only).
// Stream 1 (context 1): kernel [1000,1200), memcpy [1300,1350), kernel [1600,1700).
// Stream 2 (context 2): kernel [1100,1250) overlapping, memset [1990,2000) (the last end).
// With 4 chunks of 250: 140% (sum, over 100), 20%, 40%, 4%.
struct NsysFixture {
    TinyReport t;
    int32_t p = 0, g = 0;
    uint32_t s1 = 0, s2 = 0;
    NsysFixture() {
        p = t.process(100, "train");
        g = t.gpu(0, "GPU 0");
        s1 = t.gpuLane(LaneKind::GpuStream, p, g, 7, "Stream 7");
        s2 = t.gpuLane(LaneKind::GpuStream, p, g, 8, "Stream 8");
        t.r.lanes[s1].context_id = 1;
        t.r.lanes[s2].context_id = 2;
        t.event(s1, 0, 10, "startsAtZero", EventKind::Kernel, t.kernel(1));
        t.event(s1, 1000, 1200, "a", EventKind::Kernel, t.kernel(2));
        t.event(s1, 1300, 1350, "[CUDA memcpy Host-to-Device]", EventKind::Memcpy, t.memcpy({64, 3}));
        t.event(s1, 1600, 1700, "b", EventKind::Kernel, t.kernel(4));
        t.event(s2, 1100, 1250, "c", EventKind::Kernel, t.kernel(5));
        t.event(s2, 1990, 2000, "[CUDA memset]", EventKind::Memset, t.memset({64, 6}));
        t.freeze();
    }
    void overhead(int64_t start, int64_t end, std::string_view name) {
        t.r.profiler_overhead.push_back({start, end, p, t.r.strings.intern(name)});
    }
};

}  // namespace

TEST_CASE("utilization series: overlapping streams count once, a half busy chunk is 0.5") {
    ChartFixture f;
    const UtilizationSeries s = gpuUtilization(f.t.r, f.g0, 0, 200, 4);
    CHECK(s.begin_ns == 0);
    CHECK(s.chunk_ns == 50);
    // [0,50) busy throughout (two kernels overlap: counted once); [50,80) of [50,100);
    // [100,150) idle (GPU 1 and the NCCL copy do not count); [150,175) of [150,200).
    CHECK(s.busy_fraction == std::vector<double>{1.0, 0.6, 0.0, 0.5});

    const UtilizationSeries other = gpuUtilization(f.t.r, f.g1, 0, 200, 4);
    CHECK(other.busy_fraction == std::vector<double>{0.0, 0.0, 1.0, 1.0});
}

TEST_CASE("utilization series: uneven chunks round up and the last one is clipped") {
    ChartFixture f;
    // 190 ns in 4 chunks of ceil(47.5) = 48: [0,48) [48,96) [96,144) [144,190).
    const UtilizationSeries s = gpuUtilization(f.t.r, f.g0, 0, 190, 4);
    CHECK(s.chunk_ns == 48);
    REQUIRE(s.busy_fraction.size() == 4);
    CHECK(s.busy_fraction[0] == 1.0);
    CHECK(s.busy_fraction[1] == Approx(32.0 / 48));
    CHECK(s.busy_fraction[2] == 0.0);
    CHECK(s.busy_fraction[3] == Approx(25.0 / 46));  // over the clipped 46 ns
    // 10 ns in 6 chunks of 2: only 5 chunks start before the end.
    const UtilizationSeries few = gpuUtilization(f.t.r, f.g0, 50, 60, 6);
    CHECK(few.chunk_ns == 2);
    CHECK(few.busy_fraction == std::vector<double>{1, 1, 1, 1, 1});
    // A window inside one operation, and one before any.
    CHECK(gpuUtilization(f.t.r, f.g0, 10, 20, 1).busy_fraction == std::vector<double>{1.0});
    CHECK(gpuUtilization(f.t.r, f.g0, -100, 0, 2).busy_fraction == std::vector<double>{0.0, 0.0});
}

TEST_CASE("utilization series: empty for an invalid GPU, range or chunk count") {
    ChartFixture f;
    CHECK(gpuUtilization(f.t.r, 2, 0, 100, 4).busy_fraction.empty());
    CHECK(gpuUtilization(f.t.r, -1, 0, 100, 4).busy_fraction.empty());
    CHECK(gpuUtilization(f.t.r, f.g0, 100, 100, 4).busy_fraction.empty());
    CHECK(gpuUtilization(f.t.r, f.g0, 100, 50, 4).busy_fraction.empty());
    CHECK(gpuUtilization(f.t.r, f.g0, 0, 100, 0).chunk_ns == 0);
    CHECK(gpuUtilization(f.t.r, f.g0, 0, 100, -2).busy_fraction.empty());
}

TEST_CASE("utilization series: lanes not frozen are scanned whole") {
    ChartFixture f;
    for (Lane& lane : f.t.r.lanes) {
        lane.depth_order.clear();
        lane.depth_begin.clear();
    }
    CHECK(gpuUtilization(f.t.r, f.g0, 0, 200, 4).busy_fraction == std::vector<double>{1.0, 0.6, 0.0, 0.5});
}

TEST_CASE("utilization series: random streams and nested graph work match a count of every busy nanosecond") {
    std::mt19937 random(7);
    for (int round = 0; round < 20; ++round) {
        TinyReport t;
        const int32_t p = t.process(1, "train");
        const int32_t g = t.gpu(0, "GPU 0");
        constexpr int64_t kSpan = 3000;
        std::vector<uint8_t> busy(kSpan, 0);  // the reference: 1 where some operation runs
        for (int64_t stream = 1; stream <= 4; ++stream) {
            const uint32_t lane = t.gpuLane(LaneKind::GpuStream, p, g, stream, "Stream");
            for (int64_t at = int64_t(random() % 50); at < kSpan - 100;) {
                const int64_t length = 1 + int64_t(random() % 80);
                // A graph replay with a kernel inside it (depth 1) now and then; otherwise a
                // kernel, or an event that is no GPU work (not counted).
                const int pick = int(random() % 10);
                if (pick == 0) {
                    t.event(lane, at, at + length + 20, "graph", EventKind::GraphExecution);
                    t.event(lane, at + 5, at + 15, "inner", EventKind::Kernel, t.kernel(1));
                    std::fill(busy.begin() + at, busy.begin() + at + length + 20, 1);
                    at += length + 20;
                } else if (pick == 1) {
                    t.event(lane, at, at + length, "sync", EventKind::Sync);
                    at += length;
                } else {
                    t.event(lane, at, at + length, "k", EventKind::Kernel, t.kernel(2));
                    std::fill(busy.begin() + at, busy.begin() + at + length, 1);
                    at += length;
                }
                at += int64_t(random() % 60);
            }
        }
        t.freeze();
        const int64_t begin = int64_t(random() % 500), end = kSpan - int64_t(random() % 500);
        const int chunks = 1 + int(random() % 40);
        const UtilizationSeries s = gpuUtilization(t.r, g, begin, end, chunks);
        REQUIRE(s.chunk_ns > 0);
        for (size_t c = 0; c < s.busy_fraction.size(); ++c) {
            const int64_t cs = begin + int64_t(c) * s.chunk_ns, ce = std::min(cs + s.chunk_ns, end);
            const auto ns = std::count(busy.begin() + cs, busy.begin() + ce, uint8_t{1});
            CHECK(s.busy_fraction[c] == Approx(double(ns) / double(ce - cs)));
        }
    }
}

TEST_CASE("gpu_time_util sums concurrent work, coalesces low chunks and averages by length") {
    NsysFixture f;
    // Threshold 50: chunks 20%, 40%, 4% form one run of 750 ns: (20 + 40 + 4) / 3 = 21.3.
    const RuleResult r = gpuTimeUtilResult(f.t.r, opts({{"chunks", "4"}}));
    CHECK(toCsv(r.table) ==
          "Row#,In-Use (%),Duration (ns),Start (ns),PID,Device ID,Context ID\n"
          "1,21.3,750,1250,100,0,2\n");
    REQUIRE(r.findings.size() == 1);
    CHECK(r.findings[0].begin_ns == 1250);
    CHECK(r.findings[0].end_ns == 2000);
    CHECK(r.findings[0].gpu == f.g);
    CHECK(r.findings[0].process == f.p);
    CHECK(!r.findings[0].event);
    // Threshold 30: two runs, sorted by In-Use.
    CHECK(toCsv(gpuTimeUtil(f.t.r, opts({{"chunks", "4"}, {"threshold", "30"}}))) ==
          "Row#,In-Use (%),Duration (ns),Start (ns),PID,Device ID,Context ID\n"
          "1,4.0,250,1750,100,0,2\n"
          "2,20.0,250,1250,100,0,2\n");
    // Threshold 4: "below" is strict.
    CHECK(gpuTimeUtil(f.t.r, opts({{"chunks", "4"}, {"threshold", "4"}})).rows.empty());
    // The first chunk is 140% busy (the two first kernels overlap): never below any threshold <= 140.
    CHECK(gpuTimeUtil(f.t.r, opts({{"chunks", "4"}, {"threshold", "140"}})).rows.size() == 1);
    CHECK(formatCell(gpuTimeUtil(f.t.r, opts({{"chunks", "4"}, {"threshold", "141"}})).rows[0][1]) == "51.0");
}

TEST_CASE("gpu_time_util chunks of ceil(span / chunks) with a clipped last chunk") {
    NsysFixture f;
    // 1000 ns in 3 chunks of 334: [1000,1334) 115%, [1334,1668) 84 ns = 25.1%,
    // [1668,2000) 42 of 332 ns = 12.7%: one run averaging (84 + 42) / 666 = 18.9%.
    CHECK(toCsv(gpuTimeUtil(f.t.r, opts({{"chunks", "3"}}))) ==
          "Row#,In-Use (%),Duration (ns),Start (ns),PID,Device ID,Context ID\n"
          "1,18.9,666,1334,100,0,2\n");
}

TEST_CASE("gpu_time_util counts CUDA profiling overhead strictly inside the span") {
    NsysFixture f;
    f.overhead(1400, 1450, "CUDA profiling overhead");       // chunk 2 becomes 40%
    f.overhead(1410, 1440, "TLS allocation");                // not a CUDA overhead name: ignored
    f.overhead(1000, 1450, "CUDA profiling stop overhead");  // starts at the span's start: ignored
    CHECK(toCsv(gpuTimeUtil(f.t.r, opts({{"chunks", "4"}, {"threshold", "30"}}))) ==
          "Row#,In-Use (%),Duration (ns),Start (ns),PID,Device ID,Context ID\n"
          "1,4.0,250,1750,100,0,2\n");
    // Overhead of another process does not count.
    NsysFixture g;
    const int32_t other = g.t.process(200, "other");
    g.t.r.profiler_overhead.push_back({1400, 1450, other, g.t.r.strings.intern("CUDA profiling overhead")});
    CHECK(gpuTimeUtil(g.t.r, opts({{"chunks", "4"}, {"threshold", "30"}})).rows.size() == 2);
}

TEST_CASE("gpu_time_util: one group per process and device; start and end filter by overlap") {
    NsysFixture f;
    const int32_t q = f.t.process(300, "eval");
    const int32_t g1 = f.t.gpu(3, "GPU 3");
    const uint32_t s = f.t.gpuLane(LaneKind::GpuStream, q, g1, 7, "Stream 7");
    f.t.r.lanes[s].context_id = 9;
    f.t.event(s, 5000, 5200, "x", EventKind::Kernel, f.t.kernel(1));
    f.t.event(s, 5800, 6000, "y", EventKind::Kernel, f.t.kernel(2));
    f.t.freeze();
    // Group (300, 3): [5000,6000) in 4 chunks: 80%, 0%, 0%, 80%: one run of 0.0 (500 ns).
    CHECK(toCsv(gpuTimeUtil(f.t.r, opts({{"chunks", "4"}}))) ==
          "Row#,In-Use (%),Duration (ns),Start (ns),PID,Device ID,Context ID\n"
          "1,0.0,500,5250,300,3,9\n"
          "2,21.3,750,1250,100,0,2\n");
    // rows=1 keeps the first run in nsys's (groupId, device id, pid) order, before sorting by
    // In-Use: both runs have groupId 0 (first kept chunk 1, none kept before), device 0 first.
    CHECK(toCsv(gpuTimeUtil(f.t.r, opts({{"chunks", "4"}, {"rows", "1"}}))) ==
          "Row#,In-Use (%),Duration (ns),Start (ns),PID,Device ID,Context ID\n"
          "1,21.3,750,1250,100,0,2\n");
    // start/end keep the operations overlapping [start, end): here only group (300, 3)'s
    // second kernel, a span of 200 ns fully busy.
    CHECK(gpuTimeUtil(f.t.r, opts({{"start", "5500"}, {"end", "7000"}})).rows.empty());
    CHECK(gpuTimeUtil(f.t.r, opts({{"start", "5500"}, {"end", "7000"}, {"threshold", "101"}})).rows.size() == 1);
}

TEST_CASE("gpu_time_util: no rows without a span or chunks") {
    NsysFixture f;
    CHECK(gpuTimeUtil(f.t.r, opts({{"chunks", "0"}})).rows.empty());
    TinyReport t;
    const int32_t p = t.process(1, "p");
    const int32_t g = t.gpu(0, "GPU 0");
    const uint32_t s = t.gpuLane(LaneKind::GpuStream, p, g, 7, "Stream 7");
    t.event(s, 100, 100, "instant", EventKind::Kernel, t.kernel(1));  // a zero span
    t.freeze();
    CHECK(gpuTimeUtil(t.r, opts({{"threshold", "100"}})).rows.empty());
    TinyReport empty;
    CHECK(gpuTimeUtil(empty.r).rows.empty());
    CHECK(gpuTimeUtil(empty.r).header.size() == 7);
}
