#include <catch2/catch.hpp>

#include "model/Find.h"
#include "support/TinyReport.h"

using namespace lanescope;
using lanescope::test::TinyReport;

namespace {

// Two CPU lanes, one GPU stream and an NCCL lane holding a copy of a GPU kernel.
struct FindFixture {
    TinyReport t;
    uint32_t nvtx = 0, api = 0, stream = 0, nccl = 0;

    FindFixture() {
        const int32_t p = t.process(100, "python3");
        const int32_t th = t.thread(p, 101, "main");
        const int32_t g = t.gpu(0, "GPU");
        nvtx = t.cpuLane(LaneKind::Nvtx, th, "NVTX");
        api = t.cpuLane(LaneKind::CudaApi, th, "CUDA API");
        stream = t.gpuLane(LaneKind::GpuStream, p, g, 7, "Stream 7");
        nccl = t.gpuLane(LaneKind::Nccl, p, g, -1, "NCCL");
        const uint32_t n = t.nvtx({});
        t.event(nvtx, 10, 100, "Conv block", EventKind::NvtxRange, n);        // nvtx #0
        t.event(nvtx, 20, 40, "conv", EventKind::NvtxRange, n);               // nvtx #1
        t.event(nvtx, 50, 60, "relu", EventKind::NvtxRange, n);               // nvtx #2
        t.event(api, 20, 25, "cudaLaunchKernel", EventKind::CudaApiCall, 1);  // api #0
        t.event(api, 30, 35, "cudaLaunchKernel", EventKind::CudaApiCall, 2);  // api #1
        t.event(stream, 20, 30, "implicit_convolve_sgemm", EventKind::Kernel, t.kernel(1));
        t.event(stream, 40, 45, "ncclAllReduce", EventKind::Kernel, t.kernel(2));
        t.event(nccl, 40, 45, "ncclAllReduce", EventKind::Kernel, 1);  // copy, to be skipped
        t.freeze();
    }
};

std::vector<EventRef> refs(std::initializer_list<std::pair<uint32_t, uint32_t>> list) {
    std::vector<EventRef> out;
    for (auto [lane, index] : list) out.push_back({lane, index});
    return out;
}

}  // namespace

TEST_CASE("find: case-insensitive substring, sorted by (start, lane, index)") {
    FindFixture f;
    const FindResult r = findEvents(f.t.r, {"CONV", false, false});
    CHECK(r.error.empty());
    // Starts 10 (nvtx 0), 20 (nvtx 1, lane 0) before 20 (stream kernel, lane 2).
    CHECK(r.hits == refs({{f.nvtx, 0}, {f.nvtx, 1}, {f.stream, 0}}));
}

TEST_CASE("find: case-sensitive substring drops other cases") {
    FindFixture f;
    CHECK(findEvents(f.t.r, {"Conv", false, true}).hits == refs({{f.nvtx, 0}}));
    CHECK(findEvents(f.t.r, {"conv", false, true}).hits == refs({{f.nvtx, 1}, {f.stream, 0}}));
    CHECK(findEvents(f.t.r, {"CONV", false, true}).hits.empty());
}

TEST_CASE("find: NCCL lane copies are not found twice") {
    FindFixture f;
    const FindResult r = findEvents(f.t.r, {"nccl", false, false});
    CHECK(r.hits == refs({{f.stream, 1}}));
}

TEST_CASE("find: regex searches anywhere unless anchored, honours case") {
    FindFixture f;
    CHECK(findEvents(f.t.r, {"conv$", true, false}).hits == refs({{f.nvtx, 1}}));
    CHECK(findEvents(f.t.r, {"^conv", true, true}).hits == refs({{f.nvtx, 1}}));
    CHECK(findEvents(f.t.r, {"^conv", true, false}).hits == refs({{f.nvtx, 0}, {f.nvtx, 1}}));
    CHECK(findEvents(f.t.r, {"Launch|relu", true, false}).hits == refs({{f.api, 0}, {f.api, 1}, {f.nvtx, 2}}));
}

TEST_CASE("find: an invalid regex is an error with no hits; empty text finds nothing") {
    FindFixture f;
    const FindResult bad = findEvents(f.t.r, {"([", true, false});
    CHECK_FALSE(bad.error.empty());
    CHECK(bad.error.find("([") != std::string::npos);
    CHECK(bad.hits.empty());
    const FindResult empty = findEvents(f.t.r, {"", false, false});
    CHECK(empty.error.empty());
    CHECK(empty.hits.empty());
    // "([" as plain text is fine: nothing is called that.
    const FindResult plain = findEvents(f.t.r, {"([", false, false});
    CHECK(plain.error.empty());
    CHECK(plain.hits.empty());
}

TEST_CASE("nextHit: first hit at or after t, the previous one is just before it") {
    FindFixture f;
    const auto hits = findEvents(f.t.r, {"conv", false, false}).hits;  // starts 10, 20, 20
    REQUIRE(hits.size() == 3);
    CHECK(nextHit(f.t.r, hits, INT64_MIN) == 0);
    CHECK(nextHit(f.t.r, hits, 10) == 0);
    CHECK(nextHit(f.t.r, hits, 11) == 1);
    CHECK(nextHit(f.t.r, hits, 20) == 1);  // first of the two starting at 20
    CHECK(nextHit(f.t.r, hits, 21) == 3);
    CHECK(nextHit(f.t.r, hits, INT64_MAX) == 3);
    CHECK(nextHit(f.t.r, {}, 0) == 0);
}
