// Ranks side by side: alignment, matched collectives, waits and the straggler, on the DDP
// captures of the corpus (nsys and Kineto) and on hand-built ranks with missing collectives.
#include <catch2/catch.hpp>

#include "TestPaths.h"
#include "analysis/ranks/RankCompare.h"
#include "importers/ImportHelpers.h"
#include "support/TinyReport.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

// Every matched pair of collectives of `kind` ends within `tolerance` ns of the reference's.
void requireEndsTogether(const RankComparison& c, const std::string& kind, int64_t tolerance, size_t expectedPairs) {
    size_t pairs = 0;
    for (const MatchedCollective& mc : c.collectives) {
        if (mc.kind != kind || mc.present < 2) continue;
        ++pairs;
        const auto [lo, hi] = std::minmax_element(mc.end_ns.begin(), mc.end_ns.end());
        INFO(kind << " #" << mc.ordinal);
        CHECK(*hi - *lo <= tolerance);
    }
    CHECK(pairs == expectedPairs);
}

// One rank of a job: a GPU stream with `steps` steps, each a compute kernel then an AllReduce
// that ends at the same global time on every rank; the rank arrives `lateness` ns late (its
// compute and its step ranges are that much longer).
// `skipFirst` collectives were missed by its capture; its clock starts at `clockStart`.
std::unique_ptr<Report> syntheticRank(const std::string& file, int steps, int skipFirst, int64_t lateness,
                                      int64_t clockStart, bool withCollectives = true) {
    test::TinyReport t;
    const int32_t p = t.process(100, "python");
    const int32_t th = t.thread(p, 100, "python");
    const int32_t g = t.gpu(0, "GPU");
    const uint32_t stream = t.gpuLane(LaneKind::GpuStream, p, g, 7, "Stream 7");
    const uint32_t nvtx = t.cpuLane(LaneKind::Nvtx, th, "NVTX");
    constexpr int64_t kEpoch = 1'000'000'000'000'000'000;
    for (int s = 0; s < steps; ++s) {
        const int64_t global = s * 10'000'000;  // a step every 10 ms of wall clock
        const int64_t local = global - (clockStart - kEpoch);
        t.event(nvtx, local, local + 9'000'000 + lateness, "step " + std::to_string(s), EventKind::NvtxRange);
        t.event(stream, local, local + 4'000'000 + lateness, "gemm", EventKind::Kernel, t.kernel(uint32_t(2 * s)));
        if (withCollectives && s >= skipFirst)
            t.event(stream, local + 4'000'000 + lateness, local + 6'000'000, "ncclDevKernel_AllReduce_Sum_f32_RING_LL",
                    EventKind::Kernel, t.kernel(uint32_t(2 * s + 1)));
    }
    t.freeze();
    t.r.meta.start_utc_ns = clockStart;
    t.r.meta.source_path = "/runs/" + file;
    return std::make_unique<Report>(std::move(t.r));
}

}  // namespace

TEST_CASE("compare: NCCL alignment of the two nsys DDP ranks") {
    std::vector<std::unique_ptr<Report>> reports;
    reports.push_back(test::importOk(test::dataFile("nsys-2025.3/ddp_rank0.sqlite")));
    reports.push_back(test::importOk(test::dataFile("nsys-2025.3/ddp_rank1.sqlite")));
    const RankComparison c = compareRanks(rawReports(reports), AlignMode::Nccl);
    REQUIRE(c.alignment.offsets_ns.size() == 2);
    CHECK(c.alignment.offsets_ns[0] == 0);
    // rank 1's session began 12.937 ms before rank 0's; the collectives agree within a few us.
    const int64_t clock = reports[1]->meta.start_utc_ns - reports[0]->meta.start_utc_ns;
    CHECK(std::abs(c.alignment.offsets_ns[1] - clock) < 100'000);
    requireEndsTogether(c, "AllReduce", 50'000, 24);
    CHECK(c.alignment.residual_max_ns[1] <= 50'000);
    CHECK(c.ranks[0].label == "rank 0");  // from the file names
    CHECK(c.ranks[1].label == "rank 1");
    CHECK(c.ranks[0].collectives.at("AllReduce").count == 24);
    CHECK(c.ranks[0].collectives.at("Broadcast").count == 24);
    CHECK(c.ranks[0].steps.size() == 12);
    // Each rank's wait is what the other caused.
    CHECK(c.ranks[0].wait_ns == c.ranks[1].caused_wait_ns);
    CHECK(c.ranks[1].wait_ns == c.ranks[0].caused_wait_ns);
    REQUIRE(c.straggler.report >= 0);
    CHECK(c.straggler.basis == "collectives");
    CHECK(c.straggler.caused_wait_ns == c.ranks[size_t(c.straggler.report)].caused_wait_ns);
    CHECK(c.straggler.collectives == 48);

    // Clock alignment is the sessions' start difference; none leaves both at zero.
    CHECK(compareRanks(rawReports(reports), AlignMode::Clock).alignment.offsets_ns[1] == clock);
    CHECK(compareRanks(rawReports(reports), AlignMode::None).alignment.offsets_ns[1] == 0);

    // Nudges move each rank on top of its alignment (as the Ranks panel does); the skew left
    // is the alignment's, and the comparison is made where the ranks now sit.
    const RankComparison nudged = compareRanks(rawReports(reports), AlignMode::Nccl, {0, 250'000});
    CHECK(nudged.alignment.offsets_ns[0] == 0);
    CHECK(nudged.alignment.offsets_ns[1] == c.alignment.offsets_ns[1] + 250'000);
    CHECK(nudged.ranks[1].offset_ns == nudged.alignment.offsets_ns[1]);
    CHECK(nudged.alignment.residual_max_ns == c.alignment.residual_max_ns);
    CHECK(compareRanks(rawReports(reports), AlignMode::None, {-5, 7}).alignment.offsets_ns ==
          std::vector<int64_t>{-5, 7});
    CHECK(compareRanks(rawReports(reports), AlignMode::Clock, {0}).alignment.offsets_ns[1] == clock);  // missing: 0
}

// Both ranks of a job in one report (nsys profile torchrun): one clock, so the NCCL alignment,
// found from the collectives alone, must come out at zero.
TEST_CASE("compare: the two ranks of one report, split by process, align at zero by NCCL") {
    const auto sqlite = test::dataFile("nsys-2025.3/ddp_both_ranks.sqlite");
    for (const char* ext : {".sqlite", ".nsys-rep"}) {
        INFO(ext);
        const auto report = test::importOk(test::dataFile(std::string("nsys-2025.3/ddp_both_ranks") + ext));
        const std::vector<int32_t> processes = rankProcesses(*report);
        REQUIRE(processes.size() == 2);
        const std::vector<RankInput> inputs = extractRanksOf(*report);
        REQUIRE(inputs.size() == 2);
        for (size_t k = 0; k < 2; ++k) {
            const Process& p = report->processes[size_t(processes[k])];
            CHECK(inputs[k].label == "python [" + std::to_string(p.pid) + "]");
            CHECK(inputs[k].rank == int(k));
            CHECK(inputs[k].rank_from == "process");
            CHECK(inputs[k].steps.size() == 6);  // train.py --steps 6, each rank's own
            // Its NCCL kernels, as SQL counts those of its pid.
            CHECK(int64_t(inputs[k].nccl.size()) ==
                  test::sqliteInt(sqlite,
                                  "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s "
                                  "ON s.id = k.shortName WHERE s.value LIKE 'ncclDevKernel%' AND "
                                  "(k.globalPid >> 24) % 16777216 = " +
                                      std::to_string(p.pid)));
        }
        CHECK(inputs[0].label != inputs[1].label);
        const RankComparison c = compareRankInputs(inputs, AlignMode::Nccl);
        REQUIRE(c.alignment.offsets_ns.size() == 2);
        CHECK(std::abs(c.alignment.offsets_ns[1]) < 20'000);
        requireEndsTogether(c, "AllReduce", 50'000, 12);
        CHECK(compareRankInputs(inputs, AlignMode::Clock).alignment.offsets_ns[1] == 0);
        CHECK(c.ranks[0].wait_ns == c.ranks[1].caused_wait_ns);
        REQUIRE(c.straggler.report >= 0);
    }
    // A report of one rank stays one input, as before.
    const auto single = test::importOk(test::dataFile("nsys-2025.3/ddp_rank0.sqlite"));
    CHECK(rankProcesses(*single).empty());
    REQUIRE(extractRanksOf(*single).size() == 1);
    CHECK(extractRanksOf(*single)[0].label == "rank 0");
}

TEST_CASE("compare: NCCL alignment of the two Kineto DDP ranks") {
    std::vector<std::unique_ptr<Report>> reports;
    reports.push_back(test::importOk(test::dataFile("kineto/ddp_rank0.pt.trace.json.gz")));
    reports.push_back(test::importOk(test::dataFile("kineto/ddp_rank1.pt.trace.json.gz")));
    const RankComparison c = compareRanks(rawReports(reports), AlignMode::Nccl);
    requireEndsTogether(c, "AllReduce", 50'000, 16);
    CHECK(c.ranks[1].rank == 1);          // from distributedInfo
    CHECK(c.ranks[0].steps.size() == 8);  // ProfilerStep#0..7
    CHECK(c.straggler.report >= 0);
}

TEST_CASE("compare: a rank whose capture missed the first collectives still matches") {
    std::vector<std::unique_ptr<Report>> reports;
    const int64_t epoch = 1'000'000'000'000'000'000;
    reports.push_back(syntheticRank("job_rank0.sqlite", 10, 0, 0, epoch));
    reports.push_back(syntheticRank("job_rank1.sqlite", 10, 3, 1'500'000, epoch + 2'000'000));  // late, missed 3
    reports.push_back(syntheticRank("job_rank2.sqlite", 10, 0, 200'000, epoch - 5'000'000));
    const RankComparison c = compareRanks(rawReports(reports), AlignMode::Nccl);
    CHECK(c.alignment.offsets_ns == std::vector<int64_t>{0, 2'000'000, -5'000'000});
    CHECK(c.alignment.residual_max_ns == std::vector<int64_t>{0, 0, 0});
    REQUIRE(c.collectives.size() == 10);
    CHECK(c.collectives[0].present == 2);  // rank 1 missed the first three
    CHECK(c.collectives[3].present == 3);
    // Rank 1 arrives 1.5 ms late everywhere it took part: the straggler.
    CHECK(c.straggler.report == 1);
    CHECK(c.straggler.times_last == 7);
    CHECK(c.ranks[0].wait_ns == 7 * 1'500'000 + 3 * 200'000);
    CHECK(c.ranks[2].wait_ns == 7 * 1'300'000);
    CHECK(c.ranks[1].caused_wait_ns == 7 * (1'500'000 + 1'300'000));
}

TEST_CASE("compare: a rank without collectives, and clock-only jobs") {
    const int64_t epoch = 1'000'000'000'000'000'000;
    std::vector<std::unique_ptr<Report>> reports;
    reports.push_back(syntheticRank("mpi_rank0.sqlite", 6, 0, 0, epoch));
    reports.push_back(syntheticRank("mpi_rank1.sqlite", 6, 0, 700'000, epoch + 1'000'000, false));
    RankComparison c = compareRanks(rawReports(reports), AlignMode::Nccl);
    CHECK(c.alignment.offsets_ns == std::vector<int64_t>{0, 1'000'000});  // fell back to its clock
    REQUIRE(c.alignment.notes.size() == 1);
    CHECK(c.alignment.notes[0] == "mpi_rank1.sqlite: no NCCL collectives; aligned by clock");
    CHECK(c.collectives.size() == 6);
    CHECK(c.collectives[0].present == 1);  // nobody to wait for: the straggler comes from the steps
    CHECK(c.straggler.report == 1);
    CHECK(c.straggler.basis == "steps");
    CHECK(c.straggler.excess_ns == 700'000);

    // MPI jobs: no NCCL anywhere. Clock alignment, and the straggler from the step times.
    reports[0] = syntheticRank("mpi_rank0.sqlite", 6, 0, 0, epoch, false);
    c = compareRanks(rawReports(reports), AlignMode::Clock);
    CHECK(c.alignment.reference == -1);
    CHECK(c.collectives.empty());
    CHECK(c.alignment.offsets_ns == std::vector<int64_t>{0, 1'000'000});
    CHECK(c.straggler.report == 1);
    CHECK(c.straggler.basis == "steps");

    // Equal steps and no waits: nobody is a straggler.
    reports[1] = syntheticRank("mpi_rank1.sqlite", 6, 0, 0, epoch + 1'000'000, false);
    CHECK(compareRanks(rawReports(reports), AlignMode::Clock).straggler.report == -1);
}

TEST_CASE("compare: one report, none, and reports with no clock") {
    CHECK(compareRanks({}, AlignMode::Nccl).ranks.empty());
    auto only = syntheticRank("a.sqlite", 3, 0, 0, 1'000'000'000'000'000'000);
    const RankComparison c = compareRanks({only.get()}, AlignMode::Nccl);
    CHECK(c.alignment.offsets_ns == std::vector<int64_t>{0});
    CHECK(c.straggler.report == -1);
    auto noClock = syntheticRank("b.sqlite", 3, 0, 0, 1'000'000'000'000'000'000);
    noClock->meta.start_utc_ns = 0;
    const RankComparison d = compareRanks({only.get(), noClock.get()}, AlignMode::Clock);
    CHECK(d.alignment.offsets_ns == std::vector<int64_t>{0, 0});
    CHECK(d.alignment.notes.size() == 1);
}
