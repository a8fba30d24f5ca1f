#include <algorithm>

#include "TestPaths.h"
#include "importers/ImportHelpers.h"
#include "timeline/RowTree.h"

using namespace lanescope;

TEST_CASE("row tree of train_1gpu: GPU rows first, then the process with its threads") {
    const auto r = test::importAsViewed(test::dataFile("nsys-2025.3/train_1gpu.sqlite"));
    const auto rows = buildRowTree(*r);
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].type == Row::Type::Gpu);
    CHECK(rows[0].label == "GPU 0: NVIDIA H200");
    REQUIRE(!rows[0].children.empty());
    CHECK(rows[0].children[0].label == "Stream 7");
    CHECK(rows[0].children[0].events == 1950 + 90 + 135);
    CHECK(rows[1].type == Row::Type::Process);
    CHECK(rows[1].label == "python3 [1130]");
    uint64_t total = 0;
    for (const Row& row : rows) total += row.events;
    const auto c = r->counts();
    uint64_t projected = 0;
    for (const Lane& l : r->lanes)
        if (l.kind == LaneKind::NvtxGpuProjection) projected += l.events.size();
    CHECK(projected == projectNvtxToGpu(*r).size());  // all of train_1gpu's work runs on GPU 0
    CHECK(projected > 0);
    CHECK(total == c.slices + c.instants + c.nccl + projected);
    bool projectionUnderGpu = false;
    for (const Row& child : rows[0].children) projectionUnderGpu |= child.label == "NVTX on GPU, python3 [1130]";
    CHECK(projectionUnderGpu);
    const auto cpuFirst = buildRowTree(*r, RowOrder::CpuFirst);
    CHECK(cpuFirst[0].type == Row::Type::Process);
}

// Rank 1 of a DDP job ran on GPU 1 of two; nsys wrote its synchronization rows with device 0.
TEST_CASE("row tree of ddp_rank1: its syncs beside its streams on GPU 1, no row for the GPU it did not use") {
    const auto r = test::importAsViewed(test::dataFile("nsys-2025.3/ddp_rank1.nsys-rep"));
    REQUIRE(r->gpus.size() == 2);
    const auto rows = buildRowTree(*r);
    REQUIRE(!rows.empty());
    CHECK(rows[0].label == "GPU 1: NVIDIA H200");
    CHECK(std::count_if(rows.begin(), rows.end(), [](const Row& row) { return row.type == Row::Type::Gpu; }) == 1);
    size_t syncRows = 0;
    for (const Row& child : rows[0].children) syncRows += child.label.rfind("Sync, ", 0) == 0;
    CHECK(syncRows == 4);  // streams 7, 14, 17 and the context
    // While the report loads, every GPU it names keeps its row.
    const auto loading = buildRowTree(*r, RowOrder::GpuFirst, true);
    CHECK(std::count_if(loading.begin(), loading.end(), [](const Row& row) { return row.type == Row::Type::Gpu; }) ==
          2);
}

TEST_CASE("lanes of a GPU that two processes used name their process") {
    Report r;
    r.processes = {{791, r.strings.intern("python")}, {792, r.strings.intern("python")}};
    r.gpus = {{0, r.strings.intern("NVIDIA H200")}, {1, r.strings.intern("NVIDIA H200")}};
    auto addLane = [&](LaneKind kind, int32_t process, int32_t gpu, const char* name) {
        Lane& lane = r.lanes.emplace_back();
        lane.kind = kind;
        lane.process = process;
        lane.gpu = gpu;
        lane.stream_id = 7;
        lane.name_id = r.strings.intern(name);
    };
    addLane(LaneKind::GpuStream, 0, 0, "Stream 7");
    addLane(LaneKind::GpuStream, 1, 0, "Stream 7");
    addLane(LaneKind::NvtxGpuProjection, 0, 0, "NVTX on GPU, python [791]");
    addLane(LaneKind::GpuStream, 1, 1, "Stream 7");  // GPU 1: one process, names kept
    const auto rows = buildRowTree(r);
    REQUIRE(rows.size() == 2);
    REQUIRE(rows[0].children.size() == 3);
    CHECK(rows[0].children[0].label == "Stream 7, python [791]");
    CHECK(rows[0].children[1].label == "Stream 7, python [792]");
    CHECK(rows[0].children[2].label == "NVTX on GPU, python [791]");
    REQUIRE(rows[1].children.size() == 1);
    CHECK(rows[1].children[0].label == "Stream 7");
}

// A stream's kernel and memory lanes (importers/KernelLanes.h) are one row; a stream with memory
// operations only, or another process's stream of the same id, keeps a row of its own.
TEST_CASE("a stream's kernel and memory lanes share its row") {
    Report r;
    r.processes = {{791, r.strings.intern("python")}, {792, r.strings.intern("python")}};
    r.gpus = {{0, r.strings.intern("NVIDIA H200")}};
    auto addLane = [&](int32_t process, int64_t stream, EventKind kind, size_t events) {
        Lane& lane = r.lanes.emplace_back();
        lane.kind = LaneKind::GpuStream;
        lane.process = process;
        lane.gpu = 0;
        lane.stream_id = stream;
        lane.name_id = r.strings.intern("Stream " + std::to_string(stream));
        for (size_t i = 0; i < events; ++i) lane.events.append(int64_t(i) * 10, int64_t(i) * 10 + 5, 0, 0, kind);
    };
    addLane(0, 7, EventKind::Kernel, 3);  // 0: process 791's stream 7, kernels
    addLane(0, 9, EventKind::Memcpy, 2);  // 1: its stream 9, memcpys only
    addLane(1, 7, EventKind::Memset, 4);  // 2: process 792's stream 7, memsets only
    addLane(0, 7, EventKind::Memcpy, 5);  // 3: process 791's stream 7, memory operations
    const auto rows = buildRowTree(r);
    REQUIRE(rows.size() == 1);
    const std::vector<Row>& streams = rows[0].children;
    REQUIRE(streams.size() == 3);
    CHECK(streams[0].label == "Stream 7, python [791]");
    CHECK(streams[0].index == 0);
    CHECK(streams[0].merged_lane == 3);
    CHECK(streams[0].events == 3 + 5);
    CHECK(streams[1].label == "Stream 7, python [792]");
    CHECK(streams[1].merged_lane == -1);
    CHECK(streams[2].label == "Stream 9, python [791]");  // a GPU two processes used: every stream named
    CHECK(streams[2].merged_lane == -1);
    CHECK(rows[0].events == 3 + 5 + 4 + 2);
}
