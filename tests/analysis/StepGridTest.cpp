// The ranks by steps (analysis/ranks/StepGrid.h): step times by step number, collective waits
// per step, outliers beyond median + 3 robust σ, on the corpus's DDP pair and on hand-built ranks.
#include <catch2/catch.hpp>
#include <map>

#include "TestPaths.h"
#include "analysis/ranks/StepGrid.h"
#include "importers/ImportHelpers.h"
#include "support/TinyReport.h"

using namespace lanescope;

namespace {

constexpr int64_t kEpoch = 1'000'000'000'000'000'000;

// One rank: `steps` steps of 9 ms every 20 ms of wall clock, each a compute kernel then an
// AllReduce that ends at the same wall-clock time on every rank. `lateness` (ns, by step
// number) lengthens a step's compute and its range: the rank arrives that much later (earlier
// when negative). Its clock starts `clockShift` ns after the others'; `missing` is a step it
// does not mark.
std::unique_ptr<Report> rank(int number, int steps, std::map<int, int64_t> lateness, int64_t clockShift,
                             int missing = -1) {
    test::TinyReport t;
    const int32_t p = t.process(100, "python");
    const int32_t th = t.thread(p, 100, "python");
    const int32_t g = t.gpu(0, "GPU");
    const uint32_t stream = t.gpuLane(LaneKind::GpuStream, p, g, 7, "Stream 7");
    const uint32_t nvtx = t.cpuLane(LaneKind::Nvtx, th, "NVTX");
    for (int s = 0; s < steps; ++s) {
        const int64_t local = s * 20'000'000 - clockShift, late = lateness[s];
        if (s != missing)
            t.event(nvtx, local, local + 9'000'000 + late, "step " + std::to_string(s), EventKind::NvtxRange);
        t.event(stream, local, local + 4'000'000 + late, "gemm", EventKind::Kernel, t.kernel(uint32_t(2 * s)));
        t.event(stream, local + 4'000'000 + late, local + 8'000'000, "ncclDevKernel_AllReduce_Sum_f32_RING_LL",
                EventKind::Kernel, t.kernel(uint32_t(2 * s + 1)));
    }
    t.freeze();
    t.r.meta.start_utc_ns = kEpoch + clockShift;
    t.r.meta.source_path = "/runs/job_rank" + std::to_string(number) + ".sqlite";
    return std::make_unique<Report>(std::move(t.r));
}

size_t columnOf(const StepGrid& grid, int64_t step) {
    return size_t(std::find(grid.steps.begin(), grid.steps.end(), step) - grid.steps.begin());
}

}  // namespace

TEST_CASE("step grid: the DDP pair's cells are each rank's steps, by number") {
    std::vector<std::unique_ptr<Report>> owned;
    owned.push_back(test::importOk(test::dataFile("nsys-2025.3/ddp_rank0.sqlite")));
    owned.push_back(test::importOk(test::dataFile("nsys-2025.3/ddp_rank1.sqlite")));
    const RankComparison c = compareRanks({owned[0].get(), owned[1].get()}, AlignMode::Nccl);
    const StepGrid grid = stepGrid(c);
    REQUIRE(grid.ranks == 2);
    REQUIRE(!grid.steps.empty());
    REQUIRE(std::is_sorted(grid.steps.begin(), grid.steps.end()));
    for (size_t r = 0; r < 2; ++r) {
        const RankMetrics& m = c.ranks[r];
        REQUIRE(!m.steps.empty());
        int64_t waited = 0;
        for (size_t s = 0; s < m.steps.size(); ++s) {
            const size_t cell = grid.at(r, columnOf(grid, m.steps[s].number));
            CHECK(grid.step_index[cell] == int32_t(s));
            CHECK(grid.step_ns[cell] == m.steps[s].end_ns - m.steps[s].start_ns);
            waited += grid.wait_ns[cell];
        }
        // Every wait counted to a step is one of the rank's; none is counted twice.
        CHECK(waited <= m.wait_ns);
        CHECK(waited >= 0);
    }
}

TEST_CASE("step grid: waits per step, and the cells that stand out") {
    // Five ranks, clocks apart; rank 3 late by 3 ms in step 4 (the others wait for it); rank 1
    // early by 2 ms in step 6 (it alone waits); rank 4 marks no step 8.
    std::vector<std::unique_ptr<Report>> owned;
    for (int r = 0; r < 5; ++r) {
        std::map<int, int64_t> late;
        if (r == 3) late[4] = 3'000'000;
        if (r == 1) late[6] = -2'000'000;
        owned.push_back(rank(r, 10, late, r * 1'000'000, r == 4 ? 8 : -1));
    }
    std::vector<const Report*> reports;
    for (const auto& r : owned) reports.push_back(r.get());
    const RankComparison c = compareRanks(reports, AlignMode::Nccl);
    REQUIRE(c.alignment.mode == AlignMode::Nccl);
    const StepGrid grid = stepGrid(c);
    REQUIRE(grid.steps == std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
    for (size_t r = 0; r < 5; ++r)
        for (size_t col = 0; col < 10; ++col) {
            INFO("rank " << r << " step " << col);
            const size_t cell = grid.at(r, col);
            if (r == 4 && col == 8) {
                CHECK(grid.step_ns[cell] == StepGrid::kNoStep);
                CHECK(grid.step_index[cell] == -1);
                CHECK(grid.wait_ns[cell] == 0);
                continue;
            }
            const int64_t expectedStep =
                9'000'000 + (r == 3 && col == 4 ? 3'000'000 : 0) - (r == 1 && col == 6 ? 2'000'000 : 0);
            CHECK(grid.step_ns[cell] == expectedStep);
            const int64_t expectedWait = col == 4 && r != 3 ? 3'000'000 : col == 6 && r == 1 ? 2'000'000 : 0;
            CHECK(std::abs(grid.wait_ns[cell] - expectedWait) <= 1000);
            // The only outliers: rank 3's long step 4, and rank 1's lone wait in step 6.
            CHECK(grid.step_outlier[cell] == (r == 3 && col == 4 ? 1 : 0));
            CHECK(grid.wait_outlier[cell] == (r == 1 && col == 6 ? 1 : 0));
        }
    CHECK(grid.step_median_ns[4] == 9'000'000);
    CHECK(std::abs(grid.wait_median_ns[4] - 3'000'000) <= 1000);
}

TEST_CASE("step grid: identical ranks have no outliers, and no steps give no columns") {
    std::vector<std::unique_ptr<Report>> owned;
    for (int r = 0; r < 4; ++r) owned.push_back(rank(r, 5, {}, 0));
    const RankComparison same =
        compareRanks({owned[0].get(), owned[1].get(), owned[2].get(), owned[3].get()}, AlignMode::Nccl);
    const StepGrid grid = stepGrid(same);
    CHECK(grid.steps.size() == 5);
    CHECK(std::count(grid.step_outlier.begin(), grid.step_outlier.end(), 1) == 0);
    CHECK(std::count(grid.wait_outlier.begin(), grid.wait_outlier.end(), 1) == 0);
    const StepGrid empty = stepGrid(RankComparison{});
    CHECK(empty.ranks == 0);
    CHECK(empty.steps.empty());
    CHECK(empty.step_ns.empty());
}

TEST_CASE("step grid: an outlier is beyond the median + 3 x 1.4826 x MAD") {
    // One step on five ranks: 10, 11, 12, 13 ms and X. Median 12 ms, MAD 1 ms: the bound is
    // 12 + 4.4478 ms.
    for (const auto& [last, outlier] : {std::pair<int64_t, bool>{16'440'000, false}, {16'460'000, true}}) {
        RankComparison c;
        const int64_t durations[] = {10'000'000, 11'000'000, 12'000'000, 13'000'000, last};
        for (int64_t d : durations) {
            RankMetrics m;
            m.steps.push_back({7, 1'000, 1'000 + d, {}});
            c.ranks.push_back(m);
        }
        const StepGrid grid = stepGrid(c);
        REQUIRE(grid.steps == std::vector<int64_t>{7});
        CHECK(grid.step_median_ns[0] == 12'000'000);
        for (size_t r = 0; r < 4; ++r) CHECK(grid.step_outlier[grid.at(r, 0)] == 0);
        CHECK(grid.step_outlier[grid.at(4, 0)] == (outlier ? 1 : 0));
    }
}

TEST_CASE("step grid: of two ranks neither stands out") {
    RankComparison c;
    for (int64_t d : {40'000'000, 52'000'000}) {
        RankMetrics m;
        m.steps.push_back({0, 0, d, {}});
        c.ranks.push_back(m);
    }
    const StepGrid grid = stepGrid(c);
    CHECK(grid.step_median_ns[0] == 46'000'000);
    CHECK(grid.step_outlier == std::vector<uint8_t>{0, 0});
}
