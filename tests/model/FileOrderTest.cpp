#include <catch2/catch.hpp>

#include "model/FileOrder.h"
#include "model/LaneFreezer.h"

using namespace lanescope;

TEST_CASE("appendRun extends the last run where the next one continues it") {
    Column<FileOrderRun> runs;
    appendRun(runs, {0, 0, 2, false});
    appendRun(runs, {0, 2, 3, false});  // continues: one run
    appendRun(runs, {0, 5, 1, true});   // the lane's instants: another
    appendRun(runs, {1, 0, 1, false});
    appendRun(runs, {1, 4, 1, false});  // a gap: another
    appendRun(runs, {1, 5, 0, false});  // nothing
    CHECK(runs == Column<FileOrderRun>{{0, 0, 5, false}, {0, 5, 1, true}, {1, 0, 1, false}, {1, 4, 1, false}});
}

TEST_CASE("toFrozenOrder follows the events freezing moved and splits runs where they came apart") {
    // Lane 0's calls as a thread flushed them: 30, 40 first, then 10, 20 (an earlier buffer).
    Lane lane;
    lane.kind = LaneKind::OsRuntime;
    for (const int64_t start : {30, 40, 10, 20})
        lane.events.append(start, start + 5, 0, kNoPayload, EventKind::OsRuntimeCall);
    // Lane 1's samples, one out of time order within its run.
    Lane samples;
    samples.kind = LaneKind::CpuSamples;
    samples.instants.time_ns = {5, 7, 6};
    samples.instants.name_id = {0, 0, 0};
    samples.instants.payload = {0, 0, 0};
    FileOrder order;
    order.osrt = {{0, 0, 4, false}};
    order.cpu_samples = {{1, 0, 3, true}};
    std::vector<FrozenPositions> positions(2);
    Diagnostics diagnostics;
    freezeLane(lane, diagnostics, ColumnFit::Shrink, &positions[0]);
    freezeLane(samples, diagnostics, ColumnFit::Shrink, &positions[1]);
    CHECK(positions[0].events == std::vector<uint32_t>{2, 3, 0, 1});
    CHECK(positions[0].instants.empty());  // kept their order
    toFrozenOrder(order, positions);
    CHECK(order.osrt == Column<FileOrderRun>{{0, 2, 2, false}, {0, 0, 2, false}});
    CHECK(order.cpu_samples == Column<FileOrderRun>{{1, 0, 1, true}, {1, 2, 1, true}, {1, 1, 1, true}});
}

TEST_CASE("renumberLanes and lanesInFileOrder follow the runs' lanes") {
    FileOrder order;
    order.osrt = {{2, 0, 1, false}};
    order.cuda_api = {{0, 0, 3, false}};
    CHECK(lanesInFileOrder(order, 4) == std::vector<bool>{true, false, true, false});
    renumberLanes(order, {3, 0, 1, 2});
    CHECK(order.osrt[0].lane == 1);
    CHECK(order.cuda_api[0].lane == 3);
}

TEST_CASE("toFrozenOrder moves a core's switches two by two with the runs that make them") {
    // Two threads' runs on one core, appended thread by thread: 10..20 and 30..40, then 20..30.
    Lane core;
    core.kind = LaneKind::CpuCore;
    for (const int64_t start : {10, 30, 20}) core.events.append(start, start + 10, 0, 0, EventKind::CoreRun);
    FileOrder order;
    // The file's order, by time: in 10, out 20, in 20, out 30, in 30, out 40.
    for (const uint32_t s : {0u, 1u, 4u, 5u, 2u, 3u}) appendRun(order.sched, {0, s, 1, false});
    std::vector<FrozenPositions> positions(1);
    Diagnostics diagnostics;
    freezeLane(core, diagnostics, ColumnFit::Shrink, &positions[0]);
    toFrozenOrder(order, positions);
    CHECK(order.sched == Column<FileOrderRun>{{0, 0, 6, false}});
}
