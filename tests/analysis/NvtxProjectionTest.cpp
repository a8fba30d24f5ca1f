// NVTX GPU projection: hand-built reports, and nsys stats' own nvtx_gpu_proj_sum on the corpus.
#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "Absent.h"
#include "CsvCompare.h"
#include "analysis/DeferredLaneBytes.h"
#include "analysis/NvtxProjection.h"
#include "support/ReportSql.h"
#include "support/TinyReport.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

// The total-time column of a projection row: the one after Style.
std::string projectionTotal(const std::string& row) {
    const size_t style = row.rfind(",PushPop,") != std::string::npos ? row.rfind(",PushPop,") : row.rfind(",StartEnd,");
    const size_t from = row.find(',', style + 1) + 1;
    return row.substr(from, row.find(',', from) - from);
}

std::string_view nameOf(const Report& r, EventRef e) { return r.str(r.lanes[e.lane].events.name_id[e.index]); }

const ProjectedRange* find(const Report& r, const std::vector<ProjectedRange>& ps, std::string_view name) {
    for (const ProjectedRange& p : ps)
        if (nameOf(r, p.range) == name) return &p;
    return nullptr;
}

// One process, two threads, two GPUs. Thread 1: "outer" [0,100] launches k1 (stream 1) and
// k2 (stream 2); its child "child" [10,40] launches k3; "idle" [50,60] only synchronizes;
// a call at 150 lies in no range; "multi" [200,300] makes a graph launch of two kernels and
// a memcpy on the other GPU. Thread 2: "other" [0,100] launches k8 while "outer" is open.
struct ProjectionFixture {
    TinyReport t;
    uint32_t nvtx1 = 0, api1 = 0, nvtx2 = 0, api2 = 0, s1 = 0, s2 = 0, s3 = 0;
    int32_t g0 = 0, g1 = 0;

    ProjectionFixture() {
        const int32_t p = t.process(1, "train");
        const int32_t t1 = t.thread(p, 10, "main");
        const int32_t t2 = t.thread(p, 11, "worker");
        g0 = t.gpu(0, "GPU 0");
        g1 = t.gpu(1, "GPU 1");
        nvtx1 = t.cpuLane(LaneKind::Nvtx, t1, "NVTX");
        api1 = t.cpuLane(LaneKind::CudaApi, t1, "CUDA API");
        nvtx2 = t.cpuLane(LaneKind::Nvtx, t2, "NVTX");
        api2 = t.cpuLane(LaneKind::CudaApi, t2, "CUDA API");
        s1 = t.gpuLane(LaneKind::GpuStream, p, g0, 1, "Stream 1");
        s2 = t.gpuLane(LaneKind::GpuStream, p, g0, 2, "Stream 2");
        s3 = t.gpuLane(LaneKind::GpuStream, p, g1, 3, "Stream 3");
        const uint32_t pushPop = t.nvtx({});

        t.event(nvtx1, 0, 100, "outer", EventKind::NvtxRange, pushPop);
        t.event(nvtx1, 10, 40, "child", EventKind::NvtxRange, pushPop);
        t.event(nvtx1, 50, 60, "idle", EventKind::NvtxRange, pushPop);
        t.event(nvtx1, 200, 300, "multi", EventKind::NvtxRange, pushPop);
        t.event(nvtx2, 0, 100, "other", EventKind::NvtxRange, pushPop);

        t.event(api1, 2, 4, "cudaLaunchKernel", EventKind::CudaApiCall, 1);
        t.event(api1, 5, 7, "cudaLaunchKernel", EventKind::CudaApiCall, 2);
        t.event(api1, 12, 14, "cudaLaunchKernel", EventKind::CudaApiCall, 3);
        t.event(api1, 52, 55, "cudaStreamSynchronize", EventKind::CudaApiCall, 4);
        t.event(api1, 150, 160, "cudaLaunchKernel", EventKind::CudaApiCall, 5);
        t.event(api1, 210, 215, "cudaGraphLaunch", EventKind::CudaApiCall, 6);
        t.event(api1, 220, 222, "cudaMemcpyAsync", EventKind::CudaApiCall, 7);
        t.event(api2, 3, 4, "cudaLaunchKernel", EventKind::CudaApiCall, 8);

        t.event(s1, 20, 30, "k1", EventKind::Kernel, t.kernel(1));
        t.event(s2, 15, 25, "k2", EventKind::Kernel, t.kernel(2));
        t.event(s1, 30, 45, "k3", EventKind::Kernel, t.kernel(3));
        t.event(s1, 170, 180, "k5", EventKind::Kernel, t.kernel(5));
        t.event(s1, 220, 230, "graph1", EventKind::Kernel, t.kernel(6));
        t.event(s1, 230, 240, "graph2", EventKind::Kernel, t.kernel(6));
        t.event(s3, 250, 260, "[CUDA memcpy]", EventKind::Memcpy, t.memcpy({64, 7}));
        t.event(s1, 50, 55, "k8", EventKind::Kernel, t.kernel(8));
        t.freeze();
    }
};

}  // namespace

TEST_CASE("projection: a range gets the GPU work its calls launched, on every stream") {
    ProjectionFixture f;
    const Report& r = f.t.r;
    const auto ps = projectNvtxToGpu(r);
    REQUIRE(ps.size() == 4);
    // Sorted by projected start.
    CHECK(nameOf(r, ps[0].range) == "outer");
    CHECK(nameOf(r, ps[1].range) == "child");
    CHECK(nameOf(r, ps[2].range) == "other");
    CHECK(nameOf(r, ps[3].range) == "multi");

    // k2 on stream 2 starts first, k3 (launched in the child) ends last.
    const ProjectedRange& outer = ps[0];
    CHECK(outer.range == EventRef{f.nvtx1, 0});
    CHECK(outer.gpu_start_ns == 15);
    CHECK(outer.gpu_end_ns == 45);
    CHECK(outer.gpu_ops == 3);  // k1, k2 and its child's k3; not "other"'s k8 (other thread)
    CHECK(outer.gpu == f.g0);
    CHECK(outer.level == 0);
    CHECK(outer.children == 1);  // "child"; "idle" projects nothing and does not count

    const ProjectedRange& child = ps[1];
    CHECK(child.gpu_start_ns == 30);
    CHECK(child.gpu_end_ns == 45);
    CHECK(child.gpu_ops == 1);
    CHECK(child.level == 1);
    CHECK(child.children == 0);

    const ProjectedRange& other = ps[2];
    CHECK(other.range == EventRef{f.nvtx2, 0});
    CHECK(std::tie(other.gpu_start_ns, other.gpu_end_ns, other.gpu_ops) == std::tuple(50, 55, 1u));
    CHECK(other.level == 0);
}

TEST_CASE("projection: a range whose calls launched nothing is absent") {
    ProjectionFixture f;
    const auto ps = projectNvtxToGpu(f.t.r);
    CHECK(find(f.t.r, ps, "idle") == nullptr);
    for (const ProjectedRange& p : ps) CHECK(p.range != EventRef{f.nvtx1, 2});
    // The kernel launched outside every range belongs to none.
    for (const ProjectedRange& p : ps) CHECK_FALSE((p.gpu_start_ns <= 170 && p.gpu_end_ns >= 180));
}

TEST_CASE("projection: a graph launch counts once, work on two GPUs gives gpu -1") {
    ProjectionFixture f;
    const auto ps = projectNvtxToGpu(f.t.r);
    const ProjectedRange* multi = find(f.t.r, ps, "multi");
    REQUIRE(multi);
    CHECK(multi->gpu_start_ns == 220);
    CHECK(multi->gpu_end_ns == 260);  // the span to the memcpy's end
    CHECK(multi->gpu_ops == 2);       // distinct correlation ids: the graph launch and the memcpy
    CHECK(multi->gpu == -1);
}

TEST_CASE("projection summary of the hand-built report, as nvtx_gpu_proj_sum prints it") {
    ProjectionFixture f;
    const StatsTable table = nvtxGpuProjSum(f.t.r, projectNvtxToGpu(f.t.r));
    CHECK(table.name == "nvtx_gpu_proj_sum");
    CHECK(toCsv(table) ==
          "Range,Style,Total Proj Time (ns),Total Range Time (ns),Range Instances,Proj Avg (ns),"
          "Proj Med (ns),Proj Min (ns),Proj Max (ns),Proj StdDev (ns),Total GPU Ops,Avg GPU Ops,"
          "Avg Range Lvl,Avg Num Child\n"
          ":multi,PushPop,40,100,1,40.0,40.0,40,40,0.0,2,2.0,0.0,0.0\n"
          ":outer,PushPop,30,100,1,30.0,30.0,30,30,0.0,3,3.0,0.0,1.0\n"
          ":child,PushPop,15,30,1,15.0,15.0,15,15,0.0,1,1.0,1.0,0.0\n"
          ":other,PushPop,5,100,1,5.0,5.0,5,5,0.0,1,1.0,0.0,0.0\n");
    CHECK(toCsv(nvtxGpuProjSum(f.t.r, {})).empty());  // nothing projected: nothing printed, as nsys
    CHECK(nvtxGpuProjSum(f.t.r, {}).header == table.header);
}

TEST_CASE("projection: start/end ranges of the thread project and take part in the stack") {
    TinyReport t;
    const int32_t p = t.process(1, "app");
    const int32_t th = t.thread(p, 10, "main");
    const int32_t g = t.gpu(0, "GPU 0");
    const uint32_t nvtx = t.cpuLane(LaneKind::Nvtx, th, "NVTX");
    const uint32_t se = t.cpuLane(LaneKind::NvtxStartEnd, th, "NVTX start/end");
    const uint32_t api = t.cpuLane(LaneKind::CudaApi, th, "CUDA API");
    const uint32_t s = t.gpuLane(LaneKind::GpuStream, p, g, 7, "Stream 7");
    const uint32_t domain = t.r.strings.intern("io");
    const uint32_t pushPop = t.nvtx({0, domain, 0, false, false});
    const uint32_t startEnd = t.nvtx({0, domain, 0, false, true});
    t.event(nvtx, 0, 100, "outer", EventKind::NvtxRange, pushPop);
    t.event(nvtx, 10, 40, "inner", EventKind::NvtxRange, pushPop);
    t.event(se, 5, 45, "load", EventKind::NvtxRange, startEnd);  // between outer and inner
    t.event(se, 30, 90, "overlapping", EventKind::NvtxRange, startEnd);
    t.event(api, 12, 14, "cudaLaunchKernel", EventKind::CudaApiCall, 1);
    t.event(api, 32, 35, "cudaLaunchKernel", EventKind::CudaApiCall, 2);
    t.event(s, 50, 60, "k1", EventKind::Kernel, t.kernel(1));
    t.event(s, 60, 75, "k2", EventKind::Kernel, t.kernel(2));
    t.freeze();

    const auto ps = projectNvtxToGpu(t.r);
    REQUIRE(ps.size() == 4);
    const ProjectedRange* outer = find(t.r, ps, "outer");
    const ProjectedRange* load = find(t.r, ps, "load");
    const ProjectedRange* inner = find(t.r, ps, "inner");
    const ProjectedRange* overlapping = find(t.r, ps, "overlapping");
    REQUIRE((outer && load && inner && overlapping));
    CHECK(std::tie(outer->gpu_start_ns, outer->gpu_end_ns, outer->gpu_ops) == std::tuple(50, 75, 2u));
    CHECK(std::tie(load->gpu_start_ns, load->gpu_end_ns, load->gpu_ops) == std::tuple(50, 75, 2u));
    CHECK(std::tie(inner->gpu_start_ns, inner->gpu_end_ns, inner->gpu_ops) == std::tuple(50, 75, 2u));
    CHECK(std::tie(overlapping->gpu_start_ns, overlapping->gpu_end_ns, overlapping->gpu_ops) == std::tuple(60, 75, 1u));
    // Parents are the shortest containing range of the thread, whatever its style:
    // inner [10,40] is in load [5,45], which is in outer; overlapping [30,90] only in outer.
    CHECK(outer->level == 0);
    CHECK(load->level == 1);
    CHECK(inner->level == 2);
    CHECK(overlapping->level == 1);
    CHECK(outer->children == 2);
    CHECK(load->children == 1);
    CHECK(inner->children == 0);

    const auto csv = lines(toCsv(nvtxGpuProjSum(t.r, ps)));
    REQUIRE(csv.size() == 5);
    CHECK(csv[1] == "io:inner,PushPop,25,30,1,25.0,25.0,25,25,0.0,2,2.0,2.0,0.0");
    CHECK(csv[2] == "io:load,StartEnd,25,40,1,25.0,25.0,25,25,0.0,2,2.0,1.0,1.0");
    CHECK(csv[3] == "io:outer,PushPop,25,100,1,25.0,25.0,25,25,0.0,2,2.0,0.0,2.0");
    CHECK(csv[4] == "io:overlapping,StartEnd,15,60,1,15.0,15.0,15,15,0.0,1,1.0,1.0,0.0");
}

TEST_CASE("projection: empty report and a report without CUDA give nothing") {
    CHECK(projectNvtxToGpu(Report{}).empty());
    TinyReport t;
    const int32_t th = t.thread(t.process(1, "cpu"), 1, "main");
    const uint32_t nvtx = t.cpuLane(LaneKind::Nvtx, th, "NVTX");
    t.event(nvtx, 0, 10, "work", EventKind::NvtxRange, t.nvtx({}));
    t.freeze();
    CHECK(projectNvtxToGpu(t.r).empty());
}

TEST_CASE("nvtx_gpu_proj_sum equals nsys stats 2025.3 on train_1gpu and both DDP ranks") {
    for (const char* name : {"train_1gpu", "ddp_rank0", "ddp_rank1"}) {
        INFO(name);
        const auto report = importOk(dataFile(std::string("nsys-2025.3/") + name + ".sqlite"));
        const auto ps = projectNvtxToGpu(*report);
        checkSameTable(readFile(dataFile(std::string("expected/") + name + "/nvtx_gpu_proj_sum.csv")),
                       toCsv(nvtxGpuProjSum(*report, ps)), projectionTotal);
    }
}

namespace {

// Every projected range of an nsys export checked against SQL on the same file: the NVTX
// ranges (push/pop, start/end) of the thread whose runtime calls lie inside, joined to the
// GPU work of the calls' correlation ids in the same process. Only push/pop ranges in these
// files, so nsys's level is also the range's depth in its lane.
void checkAgainstSql(const std::filesystem::path& path) {
    const auto report = importOk(path);
    const auto ps = projectNvtxToGpu(*report);
    using Row = std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t>;
    std::vector<Row> ours;
    for (size_t i = 0; i < ps.size(); ++i) {
        const ProjectedRange& p = ps[i];
        const Lane& lane = report->lanes[p.range.lane];
        REQUIRE(lane.kind == LaneKind::Nvtx);
        CHECK(p.level == lane.events.depth[p.range.index]);
        if (i) {
            CHECK(ps[i - 1].gpu_start_ns <= p.gpu_start_ns);
        }
        ours.emplace_back(lane.events.start_ns[p.range.index], lane.events.endNs(p.range.index), p.gpu_start_ns,
                          p.gpu_end_ns, p.gpu_ops);
    }
    std::vector<Row> sql;
    for (const auto& row :
         sqliteRows(path,
                    "WITH ops AS (SELECT start, end, correlationId, globalPid FROM "
                    "CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT start, end, correlationId, globalPid "
                    "FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT start, end, correlationId, "
                    "globalPid FROM CUPTI_ACTIVITY_KIND_MEMSET) "
                    "SELECT n.start, n.end, min(o.start), max(o.end), count(DISTINCT r.correlationId) "
                    "FROM NVTX_EVENTS n JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.globalTid = "
                    "n.globalTid AND r.start >= n.start AND r.end <= n.end JOIN ops o ON "
                    "o.correlationId = r.correlationId AND o.globalPid = (r.globalTid & "
                    "0xFFFFFFFFFF000000) WHERE n.eventType IN (59, 60) AND n.end IS NOT NULL "
                    "GROUP BY n.rowid"))
        sql.emplace_back(std::stoll(row[0]), std::stoll(row[1]), std::stoll(row[2]), std::stoll(row[3]),
                         std::stoll(row[4]));
    std::sort(ours.begin(), ours.end());
    std::sort(sql.begin(), sql.end());
    CHECK(!sql.empty());
    CHECK(ours.size() == sql.size());
    CHECK(ours == sql);
}

}  // namespace

TEST_CASE("each projected range equals SQL's join of its calls' GPU work (corpus)") {
    for (const char* name : {"train_1gpu", "ddp_rank0", "ddp_rank1"}) {
        INFO(name);
        const auto path = dataFile(std::string("nsys-2025.3/") + name + ".sqlite");
        checkAgainstSql(path);
        const auto report = importOk(path);
        int32_t gpu = -1;  // each capture ran on one GPU (ddp_rank1 on the second of two)
        for (const Lane& lane : report->lanes)
            if (lane.kind == LaneKind::GpuStream) gpu = lane.gpu;
        CHECK(gpu >= 0);
        for (const ProjectedRange& p : projectNvtxToGpu(*report)) CHECK(p.gpu == gpu);
    }
}

TEST_CASE("projection of 19,289 emit_nvtx ranges equals SQL (public 2022.2 capture)") {
    const auto path = sharedFile("public/openhackathons-org__AI-Profiler__baseline_nvtx.sqlite");
    if (path.empty()) {
        LANESCOPE_SKIP_ABSENT("../shared/corpus/public (baseline_nvtx)");
    }
    checkAgainstSql(path);  // 13,123 projected ranges
}

TEST_CASE("the projection on several workers equals the projection on one, rows and sums") {
    // Five threads of one process, each with nested ranges around calls that launch kernels
    // on its GPU (even threads GPU 0, odd ones GPU 1), so that threads are projected in batches
    // and both lanes gather ranges of several threads.
    auto build = [](TinyReport& t) {
        const int32_t p = t.process(1, "train");
        const int32_t gpus[2] = {t.gpu(0, "GPU 0"), t.gpu(1, "GPU 1")};
        const uint32_t streams[2] = {t.gpuLane(LaneKind::GpuStream, p, gpus[0], 7, "Stream 7"),
                                     t.gpuLane(LaneKind::GpuStream, p, gpus[1], 7, "Stream 7")};
        uint32_t correlation = 1;
        for (int k = 0; k < 5; ++k) {
            const int32_t th = t.thread(p, 100 + k, "worker");
            const uint32_t nvtx = t.cpuLane(LaneKind::Nvtx, th, "NVTX");
            const uint32_t api = t.cpuLane(LaneKind::CudaApi, th, "CUDA API");
            for (int step = 0; step < 4; ++step) {
                const int64_t at = 1000 * step + 10 * k;
                t.event(nvtx, at, at + 900, "step", EventKind::NvtxRange, t.nvtx({}));
                t.event(nvtx, at + 100, at + 400, k % 2 ? "forward" : "backward", EventKind::NvtxRange, t.nvtx({}));
                for (int call = 0; call < 3; ++call, ++correlation) {
                    const int64_t c = at + 120 + 90 * call;
                    t.event(api, c, c + 20, "cudaLaunchKernel", EventKind::CudaApiCall, correlation);
                    t.event(streams[k % 2], c + 30, c + 30 + 5 * (call + 1), "kernel", EventKind::Kernel,
                            t.kernel(correlation));
                }
            }
        }
        t.freeze();
    };
    TinyReport one, three;
    build(one);
    build(three);
    addNvtxProjectionLanes(one.r, 1);
    addNvtxProjectionLanes(three.r, 3);
    REQUIRE(one.r.lanes.size() == three.r.lanes.size());
    size_t projectionLanes = 0;
    for (size_t li = 0; li < one.r.lanes.size(); ++li) {
        const Lane &a = one.r.lanes[li], &b = three.r.lanes[li];
        REQUIRE(a.kind == b.kind);
        if (a.kind != LaneKind::NvtxGpuProjection) continue;
        ++projectionLanes;
        CHECK(a.gpu == b.gpu);
        CHECK(a.process == b.process);
        REQUIRE(a.events.size() == b.events.size());
        for (uint32_t i = 0; i < a.events.size(); ++i) {
            CHECK(a.events.start_ns[i] == b.events.start_ns[i]);
            CHECK(a.events.endNs(i) == b.events.endNs(i));
            CHECK(one.r.str(a.events.name_id[i]) == three.r.str(b.events.name_id[i]));
        }
    }
    CHECK(projectionLanes == 2);  // one per GPU
    // Each lane holds exactly the full projection's spans on its GPU, in start order.
    for (const Lane& lane : three.r.lanes) {
        if (lane.kind != LaneKind::NvtxGpuProjection) continue;
        std::vector<std::tuple<int64_t, int64_t, std::string>> expected, shown;
        for (const ProjectedRange& p : projectNvtxToGpu(one.r))
            if (p.gpu == lane.gpu && one.r.lanes[p.range.lane].process == lane.process)
                expected.emplace_back(p.gpu_start_ns, p.gpu_end_ns,
                                      one.r.str(one.r.lanes[p.range.lane].events.name_id[p.range.index]));
        for (uint32_t i = 0; i < lane.events.size(); ++i) {
            if (i > 0) CHECK(lane.events.start_ns[i - 1] <= lane.events.start_ns[i]);
            shown.emplace_back(lane.events.start_ns[i], lane.events.endNs(i), three.r.str(lane.events.name_id[i]));
        }
        std::sort(expected.begin(), expected.end());
        std::sort(shown.begin(), shown.end());
        CHECK(shown == expected);
        CHECK(!shown.empty());
    }
    std::vector<ProjectedRange> viaWorkers;
    forEachThreadProjection(
        three.r,
        [&](const std::vector<ProjectedRange>& ps) { viaWorkers.insert(viaWorkers.end(), ps.begin(), ps.end()); }, 3);
    CHECK(viaWorkers.size() == projectNvtxToGpu(one.r).size());
    CHECK(toCsv(nvtxGpuProjSum(three.r, viaWorkers)) == toCsv(nvtxGpuProjSum(one.r, projectNvtxToGpu(one.r))));
}

// One process driving two GPUs: a range whose calls launched work on both is shown on the
// "NVTX on GPU" row of each, spanning its work there; checked against SQL's join of the
// ranges' calls with their GPU work, grouped by range and device.
TEST_CASE("NVTX-on-GPU rows of a process on two GPUs: each range on each GPU, over its work there (SQL)") {
    const auto path = dataFile("nsys-2025.3/two_gpus_one_process.sqlite");
    const auto report = importAsViewed(path);
    using Row = std::tuple<std::string, int64_t, int64_t, int64_t>;  // name, device, start, end
    std::vector<Row> ours;
    for (const Lane& lane : report->lanes) {
        if (lane.kind != LaneKind::NvtxGpuProjection) continue;
        for (size_t i = 0; i < lane.events.size(); ++i)
            ours.emplace_back(std::string(report->str(lane.events.name_id[i])),
                              report->gpus[size_t(lane.gpu)].device_id, lane.events.start_ns[i], lane.events.endNs(i));
    }
    std::vector<Row> sql;
    for (const auto& row : sqliteRows(
             path,
             "WITH ops AS (SELECT start, end, deviceId, correlationId, globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL "
             "UNION ALL SELECT start, end, deviceId, correlationId, globalPid FROM CUPTI_ACTIVITY_KIND_MEMCPY "
             "UNION ALL SELECT start, end, deviceId, correlationId, globalPid FROM CUPTI_ACTIVITY_KIND_MEMSET) "
             "SELECT coalesce(n.text, s.value), o.deviceId, min(o.start), max(o.end) FROM NVTX_EVENTS n "
             "LEFT JOIN StringIds s ON s.id = n.textId JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON "
             "r.globalTid = n.globalTid AND r.start >= n.start AND r.end <= n.end JOIN ops o ON "
             "o.correlationId = r.correlationId AND o.globalPid = (r.globalTid & 0xFFFFFFFFFF000000) "
             "WHERE n.eventType IN (59, 60) AND n.end IS NOT NULL GROUP BY n.rowid, o.deviceId"))
        sql.emplace_back(row[0], std::stoll(row[1]), std::stoll(row[2]), std::stoll(row[3]));
    std::sort(ours.begin(), ours.end());
    std::sort(sql.begin(), sql.end());
    CHECK(ours == sql);
    // The steps ran on both GPUs: each of the 8 is on both rows.
    CHECK(std::count_if(ours.begin(), ours.end(), [](const Row& r) { return std::get<0>(r).starts_with("step "); }) ==
          16);
    // The projection itself (nvtx_gpu_proj_*) keeps such a range once, on no single GPU.
    for (const ProjectedRange& p : projectNvtxToGpu(*report))
        if (report->str(report->lanes[p.range.lane].events.name_id[p.range.index]).starts_with("step "))
            CHECK(p.gpu == -1);
}

// The viewer's import adds the NVTX-on-GPU lanes deferred (empty, naming their rows) and
// projects a process's lanes when one of its rows is first drawn: the same events, by lane, as
// the lanes projected at once, each with the range it stands for.
TEST_CASE("deferred NVTX-on-GPU lanes, built when asked, equal the lanes added at once (corpus)") {
    for (const char* name : {"two_gpus_one_process.nsys-rep", "ddp_both_ranks.nsys-rep", "train_1gpu.sqlite"}) {
        INFO(name);
        const auto path = dataFile(std::string("nsys-2025.3/") + name);
        const auto whole = importAsViewed(path);
        ImportOptions options;
        options.add_view_lanes = [](Report& r) { addDeferredNvtxProjectionLanes(r); };
        const auto deferred = importOk(path, options);
        std::map<std::pair<int32_t, int32_t>, const Lane*> wholeLanes;  // by (process, GPU)
        for (const Lane& lane : whole->lanes)
            if (lane.kind == LaneKind::NvtxGpuProjection) wholeLanes[{lane.process, lane.gpu}] = &lane;
        REQUIRE(!wholeLanes.empty());
        size_t built = 0, deferredLanes = 0;
        std::set<size_t> seen;
        for (size_t li = 0; li < deferred->lanes.size(); ++li) {
            if (deferred->lanes[li].kind != LaneKind::NvtxGpuProjection) continue;
            ++deferredLanes;
            CHECK(isDeferredLane(*deferred, li));
            if (seen.count(li)) continue;
            for (const DeferredLaneEvents& made : projectDeferredLanes(*deferred, li, 2)) {
                seen.insert(made.lane);
                const Lane& shell = deferred->lanes[made.lane];
                CHECK(made.content.process == shell.process);
                CHECK(made.content.gpu == shell.gpu);
                const auto at = wholeLanes.find({shell.process, shell.gpu});
                if (made.content.events.size() == 0) {
                    CHECK(at == wholeLanes.end());
                    continue;
                }
                REQUIRE(at != wholeLanes.end());
                ++built;
                const IntervalColumns &ours = made.content.events, &theirs = at->second->events;
                REQUIRE(ours.size() == theirs.size());
                REQUIRE(made.sources.size() == ours.size());
                CHECK(made.content.depth_count == at->second->depth_count);
                // The lane as a saved model holds it (the report's own, as `whole`'s), with the
                // ranges its events stand for kept beside it: the same ranges, read back.
                const auto wholeLane = size_t(at->second - whole->lanes.data());
                const std::string sourceBytes = encodeProjectedSources(made.sources);
                for (uint32_t i = 0; i < ours.size(); i += std::max<uint32_t>(1, ours.size() / 500)) {
                    const auto kept = decodeProjectedSource(*whole, wholeLane, i, sourceBytes);
                    CHECK((kept && *kept == made.sources[i]));
                }
                // Bytes of another lane, or cut short, give none.
                CHECK_FALSE(decodeProjectedSource(*whole, wholeLane, 0, encodeProjectedSources({})));
                CHECK_FALSE(decodeProjectedSource(*whole, wholeLane, 0, sourceBytes.substr(0, sourceBytes.size() - 1)));
                CHECK_FALSE(decodeProjectedSource(*whole, wholeLane, uint32_t(ours.size()), sourceBytes));
                for (uint32_t i = 0; i < ours.size(); ++i) {
                    CHECK(ours.start_ns[i] == theirs.start_ns[i]);
                    CHECK(ours.endNs(i) == theirs.endNs(i));
                    CHECK(ours.depth[i] == theirs.depth[i]);
                    CHECK(deferred->str(ours.name_id[i]) == whole->str(theirs.name_id[i]));
                    CHECK(ours.payload[i] == theirs.payload[i]);
                    // The range it stands for: an NVTX range of the lane's process, same name and row.
                    const EventRef source = made.sources[i];
                    REQUIRE(source.lane < deferred->lanes.size());
                    const Lane& range = deferred->lanes[source.lane];
                    REQUIRE(source.index < range.events.size());
                    CHECK((range.kind == LaneKind::Nvtx || range.kind == LaneKind::NvtxStartEnd));
                    CHECK(range.process == shell.process);
                    CHECK(range.events.name_id[source.index] == ours.name_id[i]);
                    CHECK(range.events.payload[source.index] == ours.payload[i]);
                }
            }
        }
        CHECK(seen.size() == deferredLanes);  // each deferred lane built by the pass of its process
        CHECK(built == wholeLanes.size());
    }
}

// Built lanes as kept beside a saved model: read back the same for their report, and bytes that
// are not such lanes of it (cut anywhere, a byte more, another tag, another process, a range
// out of the report) are refused.
TEST_CASE("deferred NVTX-on-GPU lanes as bytes: read back equal, damage refused") {
    ImportOptions options;
    options.add_view_lanes = [](Report& r) { addDeferredNvtxProjectionLanes(r); };
    const auto report = importOk(dataFile("nsys-2025.3/two_gpus_one_process.nsys-rep"), options);
    size_t lane = 0;
    while (lane < report->lanes.size() && !isDeferredLane(*report, lane)) ++lane;
    REQUIRE(lane < report->lanes.size());
    const int32_t process = report->lanes[lane].process;
    const std::vector<DeferredLaneEvents> built = projectDeferredLanes(*report, lane, 2);
    REQUIRE(built.size() == 2);  // its two GPUs
    const std::string bytes = encodeDeferredLanes(built);
    const auto decoded = decodeDeferredLanes(*report, process, bytes);
    REQUIRE(decoded);
    REQUIRE(decoded->size() == built.size());
    for (size_t k = 0; k < built.size(); ++k) {
        const IntervalColumns &a = built[k].content.events, &b = (*decoded)[k].content.events;
        CHECK((*decoded)[k].lane == built[k].lane);
        CHECK((*decoded)[k].sources == built[k].sources);
        CHECK((*decoded)[k].content.depth_count == built[k].content.depth_count);
        REQUIRE(a.size() == b.size());
        for (uint32_t i = 0; i < a.size(); ++i) {
            CHECK(a.start_ns[i] == b.start_ns[i]);
            CHECK(a.endNs(i) == b.endNs(i));
            CHECK(a.name_id[i] == b.name_id[i]);
            CHECK(a.payload[i] == b.payload[i]);
            CHECK(a.depth[i] == b.depth[i]);
        }
    }
    for (size_t cut = 0; cut < bytes.size(); cut += 1 + bytes.size() / 50)
        CHECK_FALSE(decodeDeferredLanes(*report, process, bytes.substr(0, cut)));
    CHECK_FALSE(decodeDeferredLanes(*report, process, bytes + '\0'));
    CHECK_FALSE(decodeDeferredLanes(*report, process, "LSDLANE0" + bytes.substr(8)));
    CHECK_FALSE(decodeDeferredLanes(*report, process + 1, bytes));
    std::string outOfRange = bytes;  // the first event's range: its lane index (after tag, count, lane, events, times)
    const uint32_t noLane = uint32_t(report->lanes.size());
    std::memcpy(outOfRange.data() + 8 + 4 + 8 + 4 + 16, &noLane, sizeof noLane);
    CHECK_FALSE(decodeDeferredLanes(*report, process, outOfRange));
}
