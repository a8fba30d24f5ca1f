// A stream's kernels and memory operations in two lanes, the kernel lanes one after the other
// with their columns in one block (importers/KernelLanes.h): on a hand-built report, on corpus
// reports of both readers and of PyTorch, and on a model read back from the cache.
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <tuple>

#include "ImportHelpers.h"
#include "TempCache.h"
#include "TestPaths.h"
#include "importers/FinishReport.h"
#include "support/TinyReport.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

template <typename Column>
bool follows(const Column& a, const Column& b) {
    return a.data() + a.size() == b.data();
}

// Every column of lane b begins where lane a's ends.
bool columnsFollow(const Lane& a, const Lane& b) {
    return follows(a.events.start_ns, b.events.start_ns) && follows(a.events.duration_ns, b.events.duration_ns) &&
           follows(a.events.name_id, b.events.name_id) && follows(a.events.payload, b.events.payload) &&
           follows(a.events.kind, b.events.kind) && follows(a.events.depth, b.events.depth);
}

size_t countOf(const Lane& lane, EventKind kind) {
    size_t n = 0;
    for (size_t i = 0; i < lane.events.size(); ++i) n += lane.events.kind[i] == kind;
    return n;
}

// What every finished report holds: no lane mixes kernels with other events; the kernel lanes
// follow one another with their columns in one block; each stream's memory lane has the owners of
// its kernel lane; the lanes hold every kernel and memory operation exactly once.
void requireSeparated(const Report& r, size_t memoryOperations) {
    std::vector<size_t> kernelLanes;
    size_t kernels = 0, memory = 0;
    std::set<std::tuple<int32_t, int32_t, int64_t, int64_t>> kernelStreams;
    for (size_t i = 0; i < r.lanes.size(); ++i) {
        const Lane& lane = r.lanes[i];
        if (lane.kind != LaneKind::GpuStream) continue;
        const size_t k = countOf(lane, EventKind::Kernel);
        INFO("lane " << i << " " << r.str(lane.name_id));
        CHECK((k == 0 || k == lane.events.size()));
        CHECK(isKernelLane(lane) == (k > 0));
        if (k > 0) {
            kernelLanes.push_back(i);
            kernelStreams.emplace(lane.process, lane.gpu, lane.context_id, lane.stream_id);
        }
        kernels += k;
        memory += countOf(lane, EventKind::Memcpy) + countOf(lane, EventKind::Memset);
    }
    CHECK(kernels == r.kernels.size());
    CHECK(memory == memoryOperations);
    for (size_t k = 1; k < kernelLanes.size(); ++k) {
        INFO("kernel lanes " << kernelLanes[k - 1] << " and " << kernelLanes[k]);
        CHECK(kernelLanes[k] == kernelLanes[k - 1] + 1);
        CHECK(columnsFollow(r.lanes[kernelLanes[k - 1]], r.lanes[kernelLanes[k]]));
    }
    // A memory lane of a stream with kernels comes after the kernel lanes.
    for (size_t i = 0; i < r.lanes.size(); ++i) {
        const Lane& lane = r.lanes[i];
        if (lane.kind != LaneKind::GpuStream || isKernelLane(lane) || kernelLanes.empty()) continue;
        if (kernelStreams.count({lane.process, lane.gpu, lane.context_id, lane.stream_id}))
            CHECK(i > kernelLanes.back());
    }
}

}  // namespace

TEST_CASE("a stream's kernels and memory operations are two lanes, the kernel lanes packed together") {
    TinyReport t;
    const int32_t p = t.process(10, "app");
    const int32_t th = t.thread(p, 11, "main");
    const int32_t g = t.gpu(0, "GPU");
    const uint32_t api = t.cpuLane(LaneKind::CudaApi, th, "CUDA API");
    const uint32_t mixed = t.gpuLane(LaneKind::GpuStream, p, g, 7, "Stream 7");
    const uint32_t osrt = t.cpuLane(LaneKind::OsRuntime, th, "OS runtime");
    const uint32_t copies = t.gpuLane(LaneKind::GpuStream, p, g, 9, "Stream 9");
    const uint32_t compute = t.gpuLane(LaneKind::GpuStream, p, g, 13, "Stream 13");
    t.event(api, 0, 5, "cudaLaunchKernel", EventKind::CudaApiCall, 1);
    t.event(mixed, 40, 50, "kernel b", EventKind::Kernel, t.kernel(2));
    t.event(mixed, 10, 20, "kernel a", EventKind::Kernel, t.kernel(1));
    t.event(mixed, 25, 30, "copy", EventKind::Memcpy, t.memcpy({}));
    t.event(mixed, 60, 61, "set", EventKind::Memset, t.memset({}));
    t.r.lanes[mixed].instants.time_ns.push_back(55);  // a CUDA event record
    t.r.lanes[mixed].instants.name_id.push_back(t.r.strings.intern("cudaEventRecord"));
    t.r.lanes[mixed].instants.payload.push_back(kNoPayload);
    t.event(osrt, 0, 100, "poll", EventKind::OsRuntimeCall);
    t.event(copies, 70, 80, "copy", EventKind::Memcpy, t.memcpy({}));
    t.event(compute, 15, 45, "kernel c", EventKind::Kernel, t.kernel(3));
    finishReport(t.r, 1);

    Report& r = t.r;
    // The CUDA API lane, the kernel lanes where the first was, the memory lane split from stream 7
    // right after them, then the others in their order.
    REQUIRE(r.lanes.size() == 6);
    const std::vector<std::string> names = {"CUDA API", "Stream 7", "Stream 13", "Stream 7", "OS runtime", "Stream 9"};
    for (size_t i = 0; i < names.size(); ++i) CHECK(r.str(r.lanes[i].name_id) == names[i]);
    const Lane &kernels7 = r.lanes[1], &kernels13 = r.lanes[2], &memory7 = r.lanes[3], &memory9 = r.lanes[5];
    CHECK(isKernelLane(kernels7));
    CHECK(isKernelLane(kernels13));
    CHECK_FALSE(isKernelLane(memory7));
    CHECK_FALSE(isKernelLane(memory9));
    REQUIRE(kernels7.events.size() == 2);
    CHECK(kernels7.events.start_ns[0] == 10);  // frozen: in start order
    CHECK(kernels7.events.endNs(1) == 50);
    CHECK(kernels7.instants.size() == 1);  // the event records stay with the kernels
    REQUIRE(memory7.events.size() == 2);
    CHECK(memory7.events.kind[0] == EventKind::Memcpy);
    CHECK(memory7.events.kind[1] == EventKind::Memset);
    CHECK(memory7.instants.size() == 0);
    CHECK(std::tie(memory7.process, memory7.gpu, memory7.stream_id, memory7.context_id) ==
          std::tie(kernels7.process, kernels7.gpu, kernels7.stream_id, kernels7.context_id));
    CHECK(columnsFollow(kernels7, kernels13));
    requireSeparated(r, 3);
    CHECK(r.meta.end_ns == 100);
}

TEST_CASE("corpus reports: no lane mixes kernels with memory operations, the kernel lanes' columns are one block") {
    for (const std::string name : {"train_1gpu", "two_gpus_one_process", "ddp_both_ranks", "unified_memory"}) {
        for (const std::string ext : {".nsys-rep", ".sqlite"}) {
            const auto path = dataFile("nsys-2025.3/" + name + ext);
            INFO(path.string());
            const auto report = importOk(path);
            // The export's memcpys and memsets (a table the report has none of is absent).
            int64_t memory = 0;
            for (const char* table : {"CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"})
                memory += std::max<int64_t>(0, sqliteInt(dataFile("nsys-2025.3/" + name + ".sqlite"),
                                                         std::string("SELECT count(*) FROM ") + table));
            CHECK(memory > 0);
            requireSeparated(*report, size_t(memory));
        }
    }
    const auto kineto = importOk(dataFile("kineto/pytorch_profiled_gpu.pt.trace.json.gz"));
    size_t memory = 0;
    for (const Lane& lane : kineto->lanes)
        if (lane.kind == LaneKind::GpuStream)
            memory += countOf(lane, EventKind::Memcpy) + countOf(lane, EventKind::Memset);
    requireSeparated(*kineto, memory);
}

TEST_CASE("a model read back from the cache keeps the kernel lanes' columns in one block") {
    TempCache temp("kernel-lanes");
    const auto fresh = importOk(dataFile("nsys-2025.3/two_gpus_one_process.nsys-rep"));
    std::string error, why;
    REQUIRE(temp.cache.store(*fresh, "two-gpus", error));
    const auto loaded = temp.cache.load("two-gpus", fresh->meta.source_path, why);
    INFO(why);
    REQUIRE(loaded);
    std::vector<const Lane*> kernelLanes;
    for (const Lane& lane : loaded->lanes)
        if (isKernelLane(lane)) kernelLanes.push_back(&lane);
    REQUIRE(kernelLanes.size() >= 2);
    for (size_t k = 1; k < kernelLanes.size(); ++k) CHECK(columnsFollow(*kernelLanes[k - 1], *kernelLanes[k]));
}
