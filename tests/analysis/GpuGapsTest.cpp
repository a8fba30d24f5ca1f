// GPU gaps: nsys analyze's own gpu_gaps output on the corpus, the causes Lanescope gives them,
// and hand-built reports for the edge cases of the rule.
#include <algorithm>

#include "analysis/GpuGaps.h"
#include "support/ReportSql.h"
#include "support/TinyReport.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

constexpr int64_t kMs = 1'000'000;

// nsys's own gap query (gpustats.py / gpu_gaps.py: ends joined with the next start per pid and
// device) over the corpus file; none of its counted overhead names occur in these files.
std::string nsysGapSql(const std::string& select) {
    const std::string ops = "SELECT start, end, (globalPid >> 24) & 0xFFFFFF AS pid, deviceId, contextId FROM ";
    return "WITH ops AS (" + ops + "CUPTI_ACTIVITY_KIND_KERNEL WHERE start > 0 UNION ALL " + ops +
           "CUPTI_ACTIVITY_KIND_MEMCPY WHERE start > 0 UNION ALL " + ops +
           "CUPTI_ACTIVITY_KIND_MEMSET WHERE start > 0), "
           "starts AS (SELECT ROW_NUMBER() OVER(ORDER BY pid, deviceId, start) AS rowNum, start, pid, deviceId FROM "
           "ops), "
           "ends AS (SELECT ROW_NUMBER() OVER(ORDER BY pid, deviceId, end) AS rowNum, end, pid, deviceId FROM ops) "
           "SELECT " +
           select +
           " FROM starts JOIN ends ON starts.rowNum - 1 == ends.rowNum "
           "AND starts.deviceId == ends.deviceId AND starts.pid == ends.pid WHERE end < start";
}

// A report with one process, one GPU and helpers for streams, CPU lanes and overhead.
struct GapReport : TinyReport {
    int32_t proc = process(4242, "trainer");
    int32_t mainThread = thread(proc, 4242, "python");
    int32_t gpu0 = gpu(0, "GPU 0");

    uint32_t stream(int64_t id, int64_t context = 1, int32_t onGpu = 0, int32_t inProcess = 0) {
        const uint32_t l = gpuLane(LaneKind::GpuStream, inProcess, onGpu, id, "Stream " + std::to_string(id));
        r.lanes[l].context_id = context;
        return l;
    }
    void kernel(uint32_t lane, int64_t startMs, int64_t endMs) {
        event(lane, startMs * kMs, endMs * kMs, "k", EventKind::Kernel, TinyReport::kernel(0));
    }
    void overhead(int64_t start, int64_t end, std::string_view name, int32_t inProcess = 0) {
        r.profiler_overhead.push_back({start, end, inProcess, r.strings.intern(name)});
    }
};

std::vector<std::pair<int64_t, int64_t>> startsAndDurations(const std::vector<GpuGap>& gaps) {
    std::vector<std::pair<int64_t, int64_t>> out;
    for (const GpuGap& g : gaps) out.emplace_back(g.start_ns, g.duration_ns);
    return out;
}

GapOptions threshold(double ms, int64_t rows = -1) {
    GapOptions o;
    o.gap_ms = ms;
    o.rows = rows;
    return o;
}

}  // namespace

TEST_CASE("gpu_gaps CSV equals nsys analyze 2025.3 (gap=1 and the default 500 ms) on the corpus") {
    for (const char* name : {"train_1gpu", "ddp_rank0", "ddp_rank1"}) {
        INFO(name);
        const auto report = importOk(dataFile(std::string("nsys-2025.3/") + name + ".sqlite"));
        const std::string dir = std::string("expected/") + name + "/";

        const auto gaps1ms = findGpuGaps(*report, threshold(1, 50));
        const StatsTable table = gpuGapsTable(*report, gaps1ms);
        CHECK(table.name == "gpu_gaps");
        REQUIRE_FALSE(table.rows.empty());
        CHECK(toCsv(table) == readFile(dataFile(dir + "gpu_gaps_1ms.csv")));

        // nsys prints nothing at all when no gap is found: the expected file is empty.
        const auto defaults = findGpuGaps(*report, GapOptions{});
        CHECK(defaults.empty());
        CHECK(gpuGapsTable(*report, defaults).rows.empty());
        CHECK(readFile(dataFile(dir + "gpu_gaps.csv")).empty());
    }
}

TEST_CASE("all gaps of the corpus equal nsys's own SQL, in number and total length") {
    for (const char* name : {"train_1gpu", "ddp_rank0", "ddp_rank1"}) {
        INFO(name);
        const auto path = dataFile(std::string("nsys-2025.3/") + name + ".sqlite");
        const auto report = importOk(path);
        const auto all = findGpuGaps(*report, threshold(0, -1));
        int64_t total = 0;
        for (const GpuGap& g : all) total += g.duration_ns;
        CHECK(static_cast<int64_t>(all.size()) == sqliteInt(path, nsysGapSql("count(*)")));
        CHECK(total == sqliteInt(path, nsysGapSql("sum(start - end)")));
        CHECK(all.size() > 50);
        for (size_t i = 1; i < all.size(); ++i) {
            const bool ordered =
                all[i - 1].duration_ns > all[i].duration_ns ||
                (all[i - 1].duration_ns == all[i].duration_ns && all[i - 1].start_ns < all[i].start_ns);
            CHECK(ordered);
        }
        // rows: the default 50 are the first 50 of all; 0 gives none.
        const auto top = findGpuGaps(*report, threshold(0, 50));
        REQUIRE(top.size() == 50);
        CHECK(startsAndDurations(top) == startsAndDurations(std::vector<GpuGap>(all.begin(), all.begin() + 50)));
        CHECK(findGpuGaps(*report, threshold(0, 0)).empty());
    }
}

TEST_CASE("the 14 gaps over 1 ms of train_1gpu are the slow data loader: NVTX range 'data'") {
    const auto path = dataFile("nsys-2025.3/train_1gpu.sqlite");
    const auto report = importOk(path);
    const auto gaps = findGpuGaps(*report, threshold(1, 50));
    REQUIRE(gaps.size() == 14);
    const uint32_t data = report->strings.find("data");
    REQUIRE(data != UINT32_MAX);
    for (const GpuGap& g : gaps) {
        INFO(g.start_ns << " " << g.cause_text);
        CHECK(g.cause == GapCause::DataLoading);
        CHECK(g.nvtx_names == std::vector<uint32_t>{data});
        CHECK_FALSE(g.blocking_call);
        CHECK(g.cause_text.starts_with("CPU in NVTX range 'data' (covers 9"));
        // SQL agrees: a 'data' push/pop range of the process holds the gap's midpoint.
        const int64_t mid = g.start_ns + g.duration_ns / 2;
        CHECK(sqliteInt(path, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59 AND text = 'data' AND start <= " +
                                  std::to_string(mid) + " AND end > " + std::to_string(mid)) == 1);
    }
    CHECK(std::string(gapCauseName(gaps.front().cause)) == "NVTX range");
}

TEST_CASE("PROFILER_OVERHEAD is imported, sorted by start, with its process and names") {
    const auto path = dataFile("nsys-2025.3/train_1gpu.sqlite");
    const auto report = importOk(path);
    const auto& ov = report->profiler_overhead;
    CHECK(static_cast<int64_t>(ov.size()) == sqliteInt(path, "SELECT count(*) FROM PROFILER_OVERHEAD"));
    REQUIRE(ov.size() == 6);
    CHECK(std::is_sorted(ov.begin(), ov.end(), [](const auto& a, const auto& b) { return a.start_ns < b.start_ns; }));
    CHECK(ov.front().start_ns == sqliteInt(path, "SELECT min(start) FROM PROFILER_OVERHEAD"));
    CHECK(report->str(ov.front().name_id) == "TLS allocation");
    for (const OverheadRange& o : ov) {
        REQUIRE(o.process >= 0);
        CHECK(report->processes[static_cast<size_t>(o.process)].pid == 1130);
    }
}

TEST_CASE("gaps: no GPU work, or a single operation, gives no gaps") {
    GapReport t;
    const uint32_t api = t.cpuLane(LaneKind::CudaApi, t.mainThread, "CUDA API");
    t.event(api, 0, 100 * kMs, "cudaStreamSynchronize", EventKind::CudaApiCall, 1);
    t.freeze();
    CHECK(findGpuGaps(t.r, threshold(0)).empty());

    GapReport one;
    one.kernel(one.stream(7), 10, 20);
    one.freeze();
    CHECK(findGpuGaps(one.r, threshold(0)).empty());
    CHECK(gpuGapsTable(one.r, {}).rows.empty());
}

TEST_CASE("gaps: overlapping streams leave a gap only where neither runs; context of the op ending it") {
    GapReport t;
    const uint32_t a = t.stream(7, 1), b = t.stream(13, 2);
    t.kernel(a, 10, 100);
    t.kernel(a, 300, 400);
    t.kernel(b, 50, 200);  // ends last before the gap: its context opens the gap
    t.kernel(b, 120, 150);
    t.kernel(b, 350, 500);
    t.kernel(a, 450, 460);
    t.kernel(a, 600, 610);
    t.freeze();
    const auto gaps = findGpuGaps(t.r, threshold(0));
    REQUIRE(gaps.size() == 2);
    CHECK(gaps[0].start_ns == 200 * kMs);  // longer first
    CHECK(gaps[0].duration_ns == 100 * kMs);
    CHECK(gaps[0].context_id == 2);
    CHECK(gaps[1].start_ns == 500 * kMs);
    CHECK(gaps[1].duration_ns == 100 * kMs);
    // Equal durations: ordered by start.
    CHECK(gaps[0].start_ns < gaps[1].start_ns);
    CHECK(gaps[1].context_id == 2);
    CHECK(gaps[0].device_id == 0);
    CHECK(gaps[0].process == t.proc);

    const StatsTable table = gpuGapsTable(t.r, gaps);
    CHECK(toCsv(table) ==
          "Row#,Duration (ns),Start (ns),PID,Device ID,Context ID\n"
          "1,100000000,200000000,4242,0,2\n"
          "2,100000000,500000000,4242,0,2\n");
}

TEST_CASE("gaps: threshold is strict, as nsys's SQL (duration > gap)") {
    GapReport t;
    const uint32_t s = t.stream(7);
    t.event(s, 1 * kMs, 2 * kMs, "k", EventKind::Kernel, t.TinyReport::kernel(0));
    t.event(s, 3 * kMs, 4 * kMs, "k", EventKind::Kernel, t.TinyReport::kernel(0));      // gap of exactly 1 ms
    t.event(s, 5 * kMs + 1, 6 * kMs, "k", EventKind::Kernel, t.TinyReport::kernel(0));  // gap of 1 ms + 1 ns
    t.freeze();
    const auto gaps = findGpuGaps(t.r, threshold(1));
    REQUIRE(gaps.size() == 1);
    CHECK(gaps[0].start_ns == 4 * kMs);
    CHECK(gaps[0].duration_ns == kMs + 1);
    CHECK(findGpuGaps(t.r, threshold(0.999999)).size() == 2);
}

TEST_CASE("gaps: rows limits the longest; -1 keeps all; 0 none") {
    GapReport t;
    const uint32_t s = t.stream(7);
    int64_t at = 1;  // ms; an operation at 0 would be ignored (start > 0)
    for (int64_t gap : {3, 9, 1, 7, 5}) {
        t.kernel(s, at, at + 1);
        at += 1 + gap;
    }
    t.kernel(s, at, at + 1);
    t.freeze();
    auto durations = [](const std::vector<GpuGap>& gaps) {
        std::vector<int64_t> d;
        for (const GpuGap& g : gaps) d.push_back(g.duration_ns / kMs);
        return d;
    };
    CHECK(durations(findGpuGaps(t.r, threshold(0, 2))) == std::vector<int64_t>{9, 7});
    CHECK(durations(findGpuGaps(t.r, threshold(0, -1))) == std::vector<int64_t>{9, 7, 5, 3, 1});
    CHECK(durations(findGpuGaps(t.r, threshold(0, 50))) == std::vector<int64_t>{9, 7, 5, 3, 1});
    CHECK(findGpuGaps(t.r, threshold(0, 0)).empty());
    CHECK(durations(findGpuGaps(t.r, threshold(4, -1))) == std::vector<int64_t>{9, 7, 5});
    const StatsTable table = gpuGapsTable(t.r, findGpuGaps(t.r, threshold(4, -1)));
    REQUIRE(table.rows.size() == 3);
    CHECK(std::get<int64_t>(table.rows[2][0]) == 3);  // Row# from 1
}

TEST_CASE("gaps: with a time range, only gaps lying wholly inside it") {
    GapReport t;
    const uint32_t s = t.stream(7);
    t.kernel(s, 10, 200);
    t.kernel(s, 300, 400);
    t.freeze();
    auto within = [&](int64_t b, int64_t e) {
        GapOptions o = threshold(0);
        o.range = {b * kMs, e * kMs};
        return findGpuGaps(t.r, o).size();
    };
    CHECK(within(150, 350) == 1);
    CHECK(within(200, 300) == 1);  // the gap exactly
    CHECK(within(250, 400) == 0);  // starts inside the gap: not wholly inside
    CHECK(within(100, 250) == 0);
    CHECK(within(220, 280) == 0);  // a selection inside the gap
}

TEST_CASE("gaps: operations starting at or before 0 are ignored, as nsys's start > 0") {
    GapReport t;
    const uint32_t s = t.stream(7);
    t.event(s, 0, 5 * kMs, "k", EventKind::Kernel, t.TinyReport::kernel(0));
    t.kernel(s, 10, 11);
    t.kernel(s, 20, 21);
    t.freeze();
    const auto gaps = findGpuGaps(t.r, threshold(0));
    REQUIRE(gaps.size() == 1);
    CHECK(gaps[0].start_ns == 11 * kMs);
}

TEST_CASE("gaps: per process and per GPU; memcpy and memset count as GPU work") {
    GapReport t;
    const int32_t gpu1 = t.gpu(3, "GPU 3");
    const int32_t other = t.process(77, "other");
    const uint32_t s0 = t.stream(7, 1, t.gpu0), s1 = t.stream(7, 5, gpu1), s2 = t.stream(7, 9, t.gpu0, other);
    t.kernel(s0, 10, 20);
    t.event(s0, 40 * kMs, 50 * kMs, "[CUDA memcpy Host-to-Device]", EventKind::Memcpy, t.memcpy({}));
    t.event(s0, 60 * kMs, 61 * kMs, "[CUDA memset]", EventKind::Memset, t.memset({}));
    t.kernel(s1, 20, 30);  // another GPU of the same process does not fill GPU 0's gaps
    t.kernel(s1, 100, 110);
    t.kernel(s2, 15, 16);  // nor another process on GPU 0
    t.kernel(s2, 45, 46);
    t.freeze();
    auto gaps = findGpuGaps(t.r, threshold(0));
    REQUIRE(gaps.size() == 4);
    // Longest: GPU 3 (device 3), 70 ms; then process 77's 29 ms; then GPU 0's 20 and 10 ms.
    CHECK(gaps[0].device_id == 3);
    CHECK(gaps[0].duration_ns == 70 * kMs);
    CHECK(gaps[0].context_id == 5);
    CHECK(gaps[1].process == other);
    CHECK(gaps[1].duration_ns == 29 * kMs);
    CHECK(gaps[2].duration_ns == 20 * kMs);
    CHECK(gaps[2].start_ns == 20 * kMs);
    CHECK(gaps[3].duration_ns == 10 * kMs);
    CHECK(gaps[3].start_ns == 50 * kMs);
    const StatsTable table = gpuGapsTable(t.r, gaps);
    CHECK(std::get<int64_t>(table.rows[1][3]) == 77);
}

TEST_CASE("gaps: counted CUDA profiling overhead inside the span fills gaps; other overhead does not") {
    GapReport t;
    const uint32_t s = t.stream(7, 4);
    t.kernel(s, 10, 20);
    t.kernel(s, 120, 130);
    t.overhead(40 * kMs, 50 * kMs, "CUDA profiling overhead");             // splits 100 ms into 20 + 70
    t.overhead(60 * kMs, 110 * kMs, "TLS allocation");                     // ignored, as nsys does
    t.overhead(5 * kMs, 140 * kMs, "CUDA profiling data flush overhead");  // not strictly inside
    t.overhead(60 * kMs, 70 * kMs, "CUDA profiling stop overhead", -1);    // another process
    t.freeze();
    const auto gaps = findGpuGaps(t.r, threshold(0));
    REQUIRE(gaps.size() == 2);
    CHECK(gaps[0].start_ns == 50 * kMs);
    CHECK(gaps[0].duration_ns == 70 * kMs);
    CHECK(gaps[0].context_id == 4);  // an overhead range takes the group's context
    CHECK(gaps[1].start_ns == 20 * kMs);
    CHECK(gaps[1].duration_ns == 20 * kMs);
}

TEST_CASE("gap causes: innermost NVTX range covering most of the gap, over all threads") {
    GapReport t;
    const uint32_t s = t.stream(7);
    t.kernel(s, 10, 100);
    t.kernel(s, 300, 310);
    const uint32_t nvtx = t.cpuLane(LaneKind::Nvtx, t.mainThread, "NVTX");
    const uint32_t row = t.nvtx({});
    t.event(nvtx, 0, 1000 * kMs, "step", EventKind::NvtxRange, row);
    t.event(nvtx, 100 * kMs, 290 * kMs, "data", EventKind::NvtxRange, row);    // 95% of the gap
    t.event(nvtx, 120 * kMs, 130 * kMs, "decode", EventKind::NvtxRange, row);  // at the start only
    const int32_t worker = t.thread(t.proc, 4243, "worker");
    const uint32_t nvtx2 = t.cpuLane(LaneKind::Nvtx, worker, "NVTX");
    t.event(nvtx2, 50 * kMs, 400 * kMs, "prefetch", EventKind::NvtxRange, row);  // 100%
    // Another process's NVTX never counts.
    const int32_t other = t.process(9, "other");
    const uint32_t nvtx3 = t.cpuLane(LaneKind::Nvtx, t.thread(other, 9, "x"), "NVTX");
    t.event(nvtx3, 0, 1000 * kMs, "elsewhere", EventKind::NvtxRange, row);
    t.freeze();
    const auto gaps = findGpuGaps(t.r, threshold(0));
    REQUIRE(gaps.size() == 1);
    const GpuGap& g = gaps[0];
    CHECK(g.cause == GapCause::DataLoading);
    CHECK(g.nvtx_names == std::vector<uint32_t>{t.r.strings.find("prefetch"), t.r.strings.find("data")});
    CHECK(g.cause_text == "CPU in NVTX range 'prefetch' (covers 100% of the gap); also 'data'");
}

TEST_CASE("gap causes: blocking CUDA call, blocking OS call, launch bound, unknown") {
    struct Built {
        GapReport t;
        uint32_t api, os, nvtx;
        Built() {
            const uint32_t s = t.stream(7);
            t.kernel(s, 10, 100);
            t.kernel(s, 200, 210);  // the gap is [100, 200) ms
            api = t.cpuLane(LaneKind::CudaApi, t.mainThread, "CUDA API");
            os = t.cpuLane(LaneKind::OsRuntime, t.mainThread, "OS runtime");
            nvtx = t.cpuLane(LaneKind::Nvtx, t.mainThread, "NVTX");
        }
        GpuGap gap() {
            t.freeze();
            auto gaps = findGpuGaps(t.r, threshold(0));
            REQUIRE(gaps.size() == 1);
            return gaps[0];
        }
    };
    SECTION("a synchronize call with its driver call inside; NVTX covering less than half") {
        Built b;
        b.t.event(b.nvtx, 95 * kMs, 140 * kMs, "eval", EventKind::NvtxRange, b.t.nvtx({}));
        b.t.event(b.api, 105 * kMs, 190 * kMs, "cudaStreamSynchronize_v3020", EventKind::CudaApiCall, 1);
        b.t.event(b.api, 106 * kMs, 189 * kMs, "cuStreamSynchronize", EventKind::CudaApiCall, 1);
        const GpuGap g = b.gap();
        CHECK(g.cause == GapCause::Synchronization);
        REQUIRE(g.blocking_call);
        CHECK(g.blocking_call->lane == b.api);
        CHECK(b.t.r.str(b.t.r.lanes[b.api].events.name_id[g.blocking_call->index]) == "cudaStreamSynchronize_v3020");
        CHECK(g.cause_text == "CPU blocked in cudaStreamSynchronize on thread 'python' (covers 85% of the gap)");
        CHECK(g.nvtx_names.empty());
    }
    SECTION("a synchronous cudaMemcpy blocks; cudaMemcpyAsync does not") {
        Built b;
        b.t.event(b.api, 100 * kMs, 180 * kMs, "cudaMemcpy_v3020", EventKind::CudaApiCall, 1);
        CHECK(b.gap().cause == GapCause::Synchronization);
        Built c;
        c.t.event(c.api, 100 * kMs, 180 * kMs, "cudaMemcpyAsync_v3020", EventKind::CudaApiCall, 1);
        CHECK(c.gap().cause == GapCause::LaunchBound);  // busy in the API, though not blocked
    }
    SECTION("an OS runtime call") {
        Built b;
        b.t.event(b.os, 90 * kMs, 180 * kMs, "poll", EventKind::OsRuntimeCall);
        const GpuGap g = b.gap();
        CHECK(g.cause == GapCause::BlockingOsCall);
        REQUIRE(g.blocking_call);
        CHECK(g.blocking_call->lane == b.os);
        CHECK(g.cause_text == "CPU blocked in OS call poll on thread 'python' (covers 80% of the gap)");
        CHECK(std::string(gapCauseName(g.cause)) == "blocking OS call");
    }
    SECTION("a helper thread waiting is idle, not a cause, when another thread launches") {
        Built b;
        b.t.event(b.api, 50 * kMs, 60 * kMs, "cudaLaunchKernel_v7000", EventKind::CudaApiCall, 1);
        const int32_t helper = b.t.thread(b.t.proc, 4250, "pt_data_loader");
        const uint32_t helperOs = b.t.cpuLane(LaneKind::OsRuntime, helper, "OS runtime");
        b.t.event(helperOs, 0, 300 * kMs, "pthread_cond_wait", EventKind::OsRuntimeCall);
        CHECK(b.gap().cause == GapCause::Unknown);
    }
    SECTION("without CUDA API calls in the process, any thread's OS call counts") {
        Built b;
        const int32_t helper = b.t.thread(b.t.proc, 4250, "reader");
        const uint32_t helperOs = b.t.cpuLane(LaneKind::OsRuntime, helper, "OS runtime");
        b.t.event(helperOs, 100 * kMs, 200 * kMs, "read", EventKind::OsRuntimeCall);
        const GpuGap g = b.gap();
        CHECK(g.cause == GapCause::BlockingOsCall);
        CHECK(g.cause_text == "CPU blocked in OS call read on thread 'reader' (covers 100% of the gap)");
    }
    SECTION("many short launches covering most of the gap") {
        Built b;
        for (int64_t at = 110; at < 190; at += 10)  // 8 x 6 ms
            b.t.event(b.api, at * kMs, (at + 6) * kMs, "cudaLaunchKernel_v7000", EventKind::CudaApiCall, 1);
        b.t.event(b.api, 96 * kMs, 102 * kMs, "cudaLaunchKernel_v7000", EventKind::CudaApiCall, 1);   // 2 ms inside
        b.t.event(b.api, 190 * kMs, 205 * kMs, "cudaLaunchKernel_v7000", EventKind::CudaApiCall, 1);  // 10 ms inside
        const GpuGap g = b.gap();
        CHECK(g.cause == GapCause::LaunchBound);
        CHECK_FALSE(g.blocking_call);
        CHECK(g.cause_text == "CPU thread 'python' busy in CUDA API calls for 60% of the gap");
    }
    SECTION("the same among hundreds of launches before and after the gap") {
        Built b;
        for (int64_t at = 0; at < 380; ++at)  // 380 x 0.1 ms, 0.25 ms apart, before the gap
            b.t.event(b.api, at * kMs / 4, at * kMs / 4 + kMs / 10, "cudaLaunchKernel_v7000", EventKind::CudaApiCall,
                      1);
        for (int64_t at = 110; at < 190; at += 10)
            b.t.event(b.api, at * kMs, (at + 6) * kMs, "cudaLaunchKernel_v7000", EventKind::CudaApiCall, 1);
        b.t.event(b.api, 96 * kMs, 102 * kMs, "cudaLaunchKernel_v7000", EventKind::CudaApiCall, 1);
        b.t.event(b.api, 190 * kMs, 205 * kMs, "cudaLaunchKernel_v7000", EventKind::CudaApiCall, 1);
        for (int64_t at = 0; at < 300; ++at)  // and 300 after it
            b.t.event(b.api, 206 * kMs + at * kMs / 4, 206 * kMs + at * kMs / 4 + kMs / 10, "cudaLaunchKernel_v7000",
                      EventKind::CudaApiCall, 1);
        const GpuGap g = b.gap();
        CHECK(g.cause == GapCause::LaunchBound);
        CHECK(g.cause_text == "CPU thread 'python' busy in CUDA API calls for 60% of the gap");
    }
    SECTION("launches covering less than half, a short sync, nothing else: unknown") {
        Built b;
        for (int64_t at = 100; at < 200; at += 10)
            b.t.event(b.api, at * kMs, (at + 4) * kMs, "cudaLaunchKernel_v7000", EventKind::CudaApiCall, 1);
        b.t.event(b.api, 105 * kMs, 109 * kMs, "cudaDeviceSynchronize", EventKind::CudaApiCall, 1);
        const GpuGap g = b.gap();
        CHECK(g.cause == GapCause::Unknown);
        CHECK_FALSE(g.blocking_call);
        CHECK(std::string(gapCauseName(g.cause)) == "unknown");
    }
    SECTION("NVTX wins over a blocking call when it covers most of the gap") {
        Built b;
        b.t.event(b.nvtx, 90 * kMs, 210 * kMs, "validate", EventKind::NvtxRange, b.t.nvtx({}));
        b.t.event(b.api, 100 * kMs, 200 * kMs, "cudaDeviceSynchronize", EventKind::CudaApiCall, 1);
        const GpuGap g = b.gap();
        CHECK(g.cause == GapCause::DataLoading);
        CHECK(g.cause_text == "CPU in NVTX range 'validate' (covers 100% of the gap)");
    }
}
