#include <catch2/catch.hpp>

#include "model/Correlation.h"
#include "support/TinyReport.h"

using namespace lanescope;
using lanescope::test::TinyReport;

namespace {

// The operations a call launched, looked up through `cursor` (in call order, as the viewer does).
std::vector<EventRef> launchedThrough(const CorrelationIndex& index, CorrelationIndex::Cursor& cursor, EventRef call) {
    std::vector<EventRef> launched;
    index.forEachLaunched(call, cursor, [&](EventRef op) { launched.push_back(op); });
    return launched;
}

// Two processes that reuse the same correlation ids (ids are per process), a graph launch
// that gives two kernels, an API call with correlation id 0 and an NCCL copy.
struct CorrelationFixture {
    TinyReport t;
    uint32_t apiA = 0, streamA = 0, apiB = 0, streamB = 0, ncclA = 0, osrtA = 0;

    CorrelationFixture() {
        const int32_t a = t.process(1, "a");
        const int32_t b = t.process(2, "b");
        const int32_t ta = t.thread(a, 10, "a main");
        const int32_t tb = t.thread(b, 20, "b main");
        const int32_t g = t.gpu(0, "GPU");
        apiA = t.cpuLane(LaneKind::CudaApi, ta, "CUDA API");
        osrtA = t.cpuLane(LaneKind::OsRuntime, ta, "OS runtime");
        apiB = t.cpuLane(LaneKind::CudaApi, tb, "CUDA API");
        streamA = t.gpuLane(LaneKind::GpuStream, a, g, 7, "Stream 7");
        streamB = t.gpuLane(LaneKind::GpuStream, b, g, 7, "Stream 7");
        ncclA = t.gpuLane(LaneKind::Nccl, a, g, -1, "NCCL");

        t.event(apiA, 0, 10, "cudaLaunchKernel", EventKind::CudaApiCall, 5);  // apiA #0
        t.event(apiA, 20, 30, "cudaGraphLaunch", EventKind::CudaApiCall, 6);  // apiA #1
        t.event(apiA, 40, 50, "cudaMemcpyAsync", EventKind::CudaApiCall, 7);  // apiA #2
        t.event(apiA, 60, 70, "cudaStreamQuery", EventKind::CudaApiCall, 0);  // apiA #3
        t.event(apiB, 0, 10, "cudaLaunchKernel", EventKind::CudaApiCall, 5);  // apiB #0
        t.event(osrtA, 0, 5, "ioctl", EventKind::OsRuntimeCall);
        t.event(streamA, 15, 18, "kernelA", EventKind::Kernel, t.kernel(5));              // streamA #0
        t.event(streamA, 35, 38, "graphK1", EventKind::Kernel, t.kernel(6));              // streamA #1
        t.event(streamA, 40, 41, "graphK2", EventKind::Kernel, t.kernel(6));              // streamA #2
        t.event(streamA, 55, 58, "[CUDA memcpy]", EventKind::Memcpy, t.memcpy({8, 7}));   // #3
        t.event(streamA, 80, 90, "noLauncher", EventKind::Kernel, t.kernel(0));           // streamA #4
        t.event(streamA, 91, 92, "[CUDA memset]", EventKind::Memset, t.memset({8, 99}));  // #5
        t.event(streamB, 12, 14, "kernelB", EventKind::Kernel, t.kernel(5));              // streamB #0
        t.event(ncclA, 35, 38, "graphK1", EventKind::Kernel, 1);                          // copy of #1
        t.freeze();
    }
};

}  // namespace

TEST_CASE("correlation: launcher and launched work, per process") {
    CorrelationFixture f;
    const CorrelationIndex index(f.t.r);
    CHECK(index.apiCallCount() == 4);  // the call with id 0 is not indexed
    CHECK(index.gpuOpCount() == 6);    // the kernel with id 0 and the NCCL copy are not
    // apiA and streamA hold events without an id, so their 3 calls and 5 operations are kept
    // in correlation order (4 bytes each); apiB and streamB are searched in place.
    CHECK(index.memoryBytes() >= sizeof(CorrelationIndex) + 8 * sizeof(uint32_t));

    CHECK(index.launcherOf({f.streamA, 0}) == EventRef{f.apiA, 0});
    CHECK(index.launcherOf({f.streamB, 0}) == EventRef{f.apiB, 0});  // same id, other process
    CHECK(index.launchedBy({f.apiA, 0}) == std::vector<EventRef>{{f.streamA, 0}});
    CHECK(index.launchedBy({f.apiB, 0}) == std::vector<EventRef>{{f.streamB, 0}});
}

TEST_CASE("correlation: a graph launch gives several kernels; memcpy and memset link too") {
    CorrelationFixture f;
    const CorrelationIndex index(f.t.r);
    CHECK(index.launchedBy({f.apiA, 1}) == std::vector<EventRef>{{f.streamA, 1}, {f.streamA, 2}});
    CHECK(index.launcherOf({f.streamA, 1}) == EventRef{f.apiA, 1});
    CHECK(index.launcherOf({f.streamA, 2}) == EventRef{f.apiA, 1});
    CHECK(index.launcherOf({f.streamA, 3}) == EventRef{f.apiA, 2});
    CHECK(index.launchedBy({f.apiA, 2}) == std::vector<EventRef>{{f.streamA, 3}});
    CHECK_FALSE(index.launcherOf({f.streamA, 5}).has_value());  // memset id 99: no call
}

TEST_CASE("correlation: id 0, wrong kinds, invalid refs and NCCL copies") {
    CorrelationFixture f;
    const CorrelationIndex index(f.t.r);
    CHECK_FALSE(index.launcherOf({f.streamA, 4}).has_value());  // kernel with id 0
    CHECK(index.launchedBy({f.apiA, 3}).empty());               // call with id 0
    CHECK_FALSE(index.launcherOf({f.apiA, 0}).has_value());     // an API call is no GPU op
    CHECK(index.launchedBy({f.streamA, 0}).empty());            // a kernel is no API call
    CHECK(index.launchedBy({f.osrtA, 0}).empty());
    CHECK_FALSE(index.launcherOf({f.streamA, 99}).has_value());
    CHECK_FALSE(index.launcherOf({999, 0}).has_value());
    CHECK(index.launchedBy({999, 0}).empty());
    // The copy in the NCCL lane finds its launcher, but launchedBy points at the original.
    CHECK(index.launcherOf({f.ncclA, 0}) == EventRef{f.apiA, 1});
    CHECK(correlationIdOf(f.t.r, {f.ncclA, 0}) == 6u);
    CHECK_FALSE(correlationIdOf(f.t.r, {f.osrtA, 0}).has_value());
}

TEST_CASE("correlation: one cursor through calls in any order finds what launchedBy finds") {
    // 300 calls on one thread whose correlation ids go up and down (a shuffled order), each
    // launching one kernel, some two, some none: the cursor gallops both ways from the last.
    TinyReport t;
    const int32_t p = t.process(1, "p");
    const int32_t th = t.thread(p, 10, "main");
    const int32_t g = t.gpu(0, "GPU");
    const uint32_t api = t.cpuLane(LaneKind::CudaApi, th, "CUDA API");
    const uint32_t stream = t.gpuLane(LaneKind::GpuStream, p, g, 7, "Stream 7");
    std::vector<uint32_t> ids;
    for (uint32_t k = 0; k < 300; ++k) ids.push_back(1 + (k * 7919) % 300);  // a permutation of 1..300
    for (uint32_t k = 0; k < ids.size(); ++k)
        t.event(api, 10 * k, 10 * k + 5, "cudaLaunchKernel", EventKind::CudaApiCall, ids[k]);
    int64_t at = 0;
    for (uint32_t id = 1; id <= 300; ++id) {
        if (id % 5 == 0) continue;  // no work
        t.event(stream, at, at + 2, "k", EventKind::Kernel, t.kernel(id));
        at += 3;
        if (id % 7 == 0) {
            t.event(stream, at, at + 2, "k2", EventKind::Kernel, t.kernel(id));
            at += 3;
        }
    }
    t.freeze();
    const CorrelationIndex index(t.r);
    CorrelationIndex::Cursor cursor;
    size_t found = 0;
    for (uint32_t i = 0; i < ids.size(); ++i) {
        const std::vector<EventRef> viaCursor = launchedThrough(index, cursor, {api, i});
        CHECK(viaCursor == index.launchedBy({api, i}));
        CHECK(viaCursor.size() == (ids[i] % 5 == 0 ? 0u : ids[i] % 7 == 0 ? 2u : 1u));
        for (EventRef op : viaCursor) CHECK(op.lane == stream);
        found += viaCursor.size();
    }
    CHECK(found == index.gpuOpCount());
}

TEST_CASE("correlation: lanes whose ids ascend are searched in place; others in their own order") {
    for (const bool ascending : {true, false}) {
        TinyReport t;
        const int32_t p = t.process(1, "p");
        const int32_t th = t.thread(p, 10, "main");
        const int32_t g = t.gpu(0, "GPU");
        const uint32_t api = t.cpuLane(LaneKind::CudaApi, th, "CUDA API");
        const uint32_t stream = t.gpuLane(LaneKind::GpuStream, p, g, 7, "Stream 7");
        constexpr uint32_t kCalls = 1000;
        // Ascending: ids 1..1000 in time order. Otherwise the ids run backwards, 1000..1.
        auto id = [&](uint32_t i) { return ascending ? i + 1 : kCalls - i; };
        for (uint32_t i = 0; i < kCalls; ++i) {
            t.event(api, 100 * i, 100 * i + 10, "cudaLaunchKernel", EventKind::CudaApiCall, id(i));
            t.event(stream, 100 * i + 20, 100 * i + 30, "k", EventKind::Kernel, t.kernel(id(i)));
        }
        t.freeze();
        const CorrelationIndex index(t.r);
        CAPTURE(ascending);
        CHECK(index.apiCallCount() == kCalls);
        CHECK(index.gpuOpCount() == kCalls);
        if (ascending)
            CHECK(index.memoryBytes() < 200);  // nothing per event
        else
            CHECK(index.memoryBytes() >= 2 * kCalls * sizeof(uint32_t));
        CorrelationIndex::Cursor cursor;
        for (uint32_t i = 0; i < kCalls; ++i) {
            CHECK(index.launcherOf({stream, i}) == EventRef{api, i});
            CHECK(launchedThrough(index, cursor, {api, i}) == std::vector<EventRef>{{stream, i}});
        }
    }
}

TEST_CASE(
    "correlation: one cursor over several GPU lanes gives what a fresh search gives, ids jumping back and forth") {
    TinyReport t;
    const int32_t p = t.process(1, "p");
    const int32_t th = t.thread(p, 10, "main");
    const int32_t g = t.gpu(0, "GPU");
    const uint32_t api = t.cpuLane(LaneKind::CudaApi, th, "CUDA API");
    const uint32_t streams[3] = {t.gpuLane(LaneKind::GpuStream, p, g, 7, "Stream 7"),
                                 t.gpuLane(LaneKind::GpuStream, p, g, 13, "Stream 13"),
                                 t.gpuLane(LaneKind::GpuStream, p, g, 17, "Stream 17")};
    // Kernels of ids 1..900 spread over the streams (id % 3), some ids without work and some
    // with two kernels; calls of mostly ascending ids, with jumps back, repeats and ids past
    // every kernel.
    int64_t at = 0;
    for (uint32_t id = 1; id <= 900; ++id) {
        if (id % 11 == 0) continue;
        const uint32_t stream = streams[id % 3];
        t.event(stream, at, at + 2, "k", EventKind::Kernel, t.kernel(id));
        if (id % 13 == 0) t.event(stream, at + 3, at + 4, "k2", EventKind::Kernel, t.kernel(id));
        at += 10;
    }
    uint32_t state = 12345;
    std::vector<uint32_t> ids;
    for (uint32_t i = 0; i < 2000; ++i) {
        state = state * 1103515245u + 12345u;
        const uint32_t r = (state >> 16) % 100;
        const uint32_t id = r < 80 ? i / 2 + 1 : r < 90 ? (state >> 8) % 900 + 1 : r < 95 ? 950 + r : i / 2;
        ids.push_back(id);
    }
    for (uint32_t i = 0; i < ids.size(); ++i)
        t.event(api, 10 * i, 10 * i + 5, "cudaLaunchKernel", EventKind::CudaApiCall, ids[i]);
    t.freeze();
    const CorrelationIndex index(t.r);
    CorrelationIndex::Cursor cursor;
    size_t found = 0;
    for (uint32_t i = 0; i < ids.size(); ++i) {
        const std::vector<EventRef> viaCursor = launchedThrough(index, cursor, {api, i});
        CHECK(viaCursor == index.launchedBy({api, i}));
        const uint32_t id = ids[i];
        const size_t expected = id == 0 || id > 900 || id % 11 == 0 ? 0 : id % 13 == 0 ? 2 : 1;
        CHECK(viaCursor.size() == expected);
        found += viaCursor.size();
    }
    CHECK(found > 1500);
}

TEST_CASE("correlation: an index built on several threads answers as one built on one") {
    CorrelationFixture f;  // apiA and streamA need orders of their own; apiB and streamB do not
    TinyReport& t = f.t;
    const CorrelationIndex one(t.r, 1);
    for (const unsigned threads : {2u, 3u, 16u}) {
        CAPTURE(threads);
        const CorrelationIndex many(t.r, threads);
        CHECK(many.apiCallCount() == one.apiCallCount());
        CHECK(many.gpuOpCount() == one.gpuOpCount());
        CHECK(many.memoryBytes() == one.memoryBytes());
        for (uint32_t lane = 0; lane < t.r.lanes.size(); ++lane)
            for (uint32_t i = 0; i < t.r.lanes[lane].events.size(); ++i) {
                CHECK(many.launcherOf({lane, i}) == one.launcherOf({lane, i}));
                CHECK(many.launchedBy({lane, i}) == one.launchedBy({lane, i}));
            }
    }
}
