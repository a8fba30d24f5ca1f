// Ranks of MPI jobs: the rank each report records, alignment by MPI collectives, waits,
// point-to-point time and the straggler, on the corpus's three jacobi ranks (2020.5 .qdrep,
// read natively) and on hand-built ranks (nonblocking collectives, the automatic choice).
#include <catch2/catch.hpp>

#include "Absent.h"
#include "TestPaths.h"
#include "analysis/ranks/RankCompare.h"
#include "importers/ImportHelpers.h"
#include "model/MpiRank.h"
#include "support/TinyReport.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

// The median over the matched collectives of `kind` of |a rank's aligned end - the reference's|.
int64_t medianEndSkew(const RankComparison& c, const std::string& kind, size_t rank, size_t* pairs) {
    std::vector<int64_t> skew;
    const size_t ref = size_t(c.alignment.reference);
    for (const MatchedCollective& mc : c.collectives) {
        if (mc.kind != kind || mc.present < 2 || mc.end_ns[rank] == INT64_MIN) continue;
        skew.push_back(std::abs(mc.end_ns[rank] - mc.end_ns[ref]));
    }
    *pairs = skew.size();
    if (skew.empty()) return -1;
    std::nth_element(skew.begin(), skew.begin() + long(skew.size() / 2), skew.end());
    return skew[skew.size() / 2];
}

// One rank of an MPI job with `steps` steps: an MPI_Sendrecv, some compute, then an
// MPI_Allreduce (or MPI_Iallreduce + MPI_Wait) that ends at the same wall-clock time on every
// rank; the rank arrives `lateness` ns late. Its clock starts at `clockStart`; it records its
// rank as an NVTX mark "MPI Rank N".
std::unique_ptr<Report> mpiRank(int rank, int steps, int64_t lateness, int64_t clockStart, bool nonblocking = false) {
    test::TinyReport t;
    const int32_t p = t.process(100 + rank, "jacobi");
    const int32_t th = t.thread(p, 100 + rank, "jacobi");
    const uint32_t mpi = t.cpuLane(LaneKind::Mpi, th, "MPI");
    const uint32_t nvtx = t.cpuLane(LaneKind::Nvtx, th, "NVTX");
    constexpr int64_t kEpoch = 1'000'000'000'000'000'000;
    t.event(mpi, 0, 1'000'000, "MPI_Init", EventKind::MpiCall);
    for (int s = 0; s < steps; ++s) {
        const int64_t local = (s + 1) * 10'000'000 - (clockStart - kEpoch);
        t.event(mpi, local, local + 500'000, "MPI_Sendrecv", EventKind::MpiCall);
        const int64_t arrive = local + 4'000'000 + lateness;
        const int64_t end = local + 6'000'000;
        if (nonblocking) {
            t.event(mpi, arrive, arrive + 10'000, "MPI_Iallreduce", EventKind::MpiCall);
            t.event(mpi, arrive + 100'000, end, "MPI_Wait", EventKind::MpiCall);
        } else {
            t.event(mpi, arrive, end, "MPI_Allreduce", EventKind::MpiCall);
        }
    }
    t.r.lanes[nvtx].instants.time_ns.push_back(2'000'000);
    t.r.lanes[nvtx].instants.name_id.push_back(t.r.strings.intern("MPI Rank " + std::to_string(rank)));
    t.r.lanes[nvtx].instants.payload.push_back(kNoPayload);
    t.freeze();
    t.r.meta.start_utc_ns = clockStart;
    t.r.meta.source_path = "/runs/jacobi_" + std::to_string(rank) + ".qdrep";
    t.r.meta.rank = recordedMpiRank(t.r);  // as finishReport does
    return std::make_unique<Report>(std::move(t.r));
}

}  // namespace

TEST_CASE("MPI rank: the text of a mark or thread name") {
    CHECK(mpiRankInText("MPI Rank 4") == 4);
    CHECK(mpiRankInText("[MPI Rank 12]") == 12);
    CHECK(mpiRankInText("mpi rank: 3") == 3);
    CHECK(mpiRankInText("MPI Rank #0 ") == 0);
    CHECK(mpiRankInText("MPI Rank") == -1);
    CHECK(mpiRankInText("MPI Rank 4x") == -1);
    CHECK(mpiRankInText("MPI Ranking 4") == -1);
    CHECK(mpiRankInText("MPI Rank 99999999999") == -1);
    CHECK(mpiRankInText("step 4") == -1);
}

TEST_CASE("MPI calls: collectives, nonblocking ones with their waits, point-to-point") {
    CHECK(classifyMpiCall("MPI_Allreduce") == MpiCallClass::Collective);
    CHECK(classifyMpiCall("MPI_Reduce_scatter") == MpiCallClass::Collective);
    CHECK(classifyMpiCall("MPI_Iallreduce") == MpiCallClass::NonblockingCollective);
    CHECK(classifyMpiCall("MPI_Ibarrier") == MpiCallClass::NonblockingCollective);
    CHECK(classifyMpiCall("MPI_Isend") == MpiCallClass::PointToPoint);
    CHECK(classifyMpiCall("MPI_Sendrecv") == MpiCallClass::PointToPoint);
    CHECK(classifyMpiCall("MPI_Waitall") == MpiCallClass::Wait);
    CHECK(classifyMpiCall("MPI_Init") == MpiCallClass::Other);
    CHECK(classifyMpiCall("MPI_Ifoo") == MpiCallClass::Other);

    const auto r = mpiRank(1, 3, 0, 1'000'000'000'000'000'000, true);
    const MpiActivity a = mpiActivity(*r);
    REQUIRE(a.collectives.size() == 3);
    CHECK(a.collectives[0].kind == "MPI_Iallreduce");
    CHECK(a.collectives[0].block_start_ns == a.collectives[0].start_ns + 100'000);  // its MPI_Wait
    CHECK(a.collectives[0].end_ns == a.collectives[0].start_ns + 2'000'000);
    CHECK(a.point_to_point.size() == 1);  // every MPI_Wait was claimed by a collective
    CHECK(a.point_to_point.at("MPI_Sendrecv").count == 3);
    CHECK(a.point_to_point.at("MPI_Sendrecv").blocked_ns == 3 * 500'000);
}

TEST_CASE("compare: MPI alignment, waits and straggler of hand-built ranks") {
    const int64_t epoch = 1'000'000'000'000'000'000;
    std::vector<std::unique_ptr<Report>> reports;
    reports.push_back(mpiRank(0, 8, 0, epoch));
    reports.push_back(mpiRank(1, 8, 1'200'000, epoch + 3'000'000));  // late in every step
    reports.push_back(mpiRank(2, 8, 300'000, epoch - 2'000'000));
    const RankComparison c = compareRanks(rawReports(reports), AlignMode::Auto);  // no NCCL: MPI
    CHECK(c.alignment.mode == AlignMode::Mpi);
    CHECK(c.collectives_from == "mpi");
    CHECK(c.alignment.offsets_ns == std::vector<int64_t>{0, 3'000'000, -2'000'000});
    CHECK(c.alignment.residual_max_ns == std::vector<int64_t>{0, 0, 0});
    CHECK(c.ranks[1].label == "rank 1");
    REQUIRE(c.collectives.size() == 8);
    CHECK(c.collectives[0].kind == "MPI_Allreduce");
    CHECK(c.collectives[0].present == 3);
    CHECK(c.ranks[0].wait_ns == 8 * 1'200'000);
    CHECK(c.ranks[2].wait_ns == 8 * 900'000);
    CHECK(c.ranks[1].caused_wait_ns == 8 * 2'100'000);
    CHECK(c.straggler.report == 1);
    CHECK(c.straggler.basis == "collectives");
    CHECK(c.straggler.times_last == 8);
    CHECK(c.ranks[0].point_to_point_ns == 8 * 500'000);

    // Nonblocking collectives: a rank waits only from its MPI_Wait on.
    std::vector<std::unique_ptr<Report>> nb;
    nb.push_back(mpiRank(0, 4, 0, epoch, true));
    nb.push_back(mpiRank(1, 4, 1'200'000, epoch, true));
    const RankComparison d = compareRanks(rawReports(nb), AlignMode::Mpi);
    CHECK(d.alignment.offsets_ns == std::vector<int64_t>{0, 0});
    CHECK(d.ranks[0].wait_ns == 4 * (1'200'000 - 100'000));
    CHECK(d.ranks[1].wait_ns == 0);
    CHECK(d.straggler.report == 1);

    // Asked for NCCL in an MPI job: each rank by its clock, said in the notes. Under clock the
    // MPI collectives are still matched, so the waits and the straggler are measured.
    const RankComparison e = compareRanks(rawReports(reports), AlignMode::Nccl);
    CHECK(e.alignment.offsets_ns == std::vector<int64_t>{0, 3'000'000, -2'000'000});
    CHECK(e.alignment.notes.size() == 3);
    CHECK(e.alignment.notes[0] == "jacobi_0.qdrep: no NCCL collectives; aligned by clock");
    CHECK(compareRanks(rawReports(reports), AlignMode::Clock).collectives_from == "mpi");
    CHECK(compareRanks(rawReports(reports), AlignMode::Clock).straggler.report == 1);
}

TEST_CASE("compare: MPI alignment of the three jacobi ranks (2020.5 .qdrep, native reader)") {
    std::vector<std::unique_ptr<Report>> reports;
    for (const char* n : {"3", "4", "6"}) {
        const auto path =
            test::sharedFile(std::string("public/mpi-jacobi/openhackathons-org__gpubootcamp__report") + n + ".qdrep");
        if (path.empty()) LANESCOPE_SKIP_ABSENT("public/mpi-jacobi/openhackathons-org__gpubootcamp__report" << n);
        reports.push_back(test::importOk(path));
    }
    // Each records its rank as an NVTX mark "MPI Rank N".
    CHECK(rankOf(*reports[0]) == 4);
    CHECK(rankOf(*reports[1]) == 2);
    CHECK(rankOf(*reports[2]) == 6);
    CHECK(reportTitle(*reports[0]) == "rank 4 · openhackathons-org__gpubootcamp__report3.qdrep");

    const RankComparison c = compareRanks(rawReports(reports), AlignMode::Auto);
    CHECK(c.alignment.mode == AlignMode::Mpi);
    CHECK(c.alignment.notes.empty());
    CHECK(c.ranks[0].label == "rank 4");
    CHECK(c.ranks[1].label == "rank 2");
    CHECK(c.ranks[2].label == "rank 6");
    for (size_t r = 0; r < 3; ++r) {
        INFO("report " << r);
        CHECK(c.ranks[r].collectives.at("MPI_Allreduce").count == 1001);
        CHECK(c.ranks[r].collectives.at("MPI_Barrier").count == 1);
        CHECK(c.ranks[r].point_to_point.at("MPI_Sendrecv").count == 2000);
        CHECK(c.ranks[r].point_to_point_ns > 0);
        size_t pairs = 0;
        CHECK(medianEndSkew(c, "MPI_Allreduce", r, &pairs) <= 50'000);
        CHECK(pairs == 1001);
        CHECK(c.alignment.residual_median_ns[r] <= 50'000);
    }
    // The session starts were within 4 ms of each other; the collectives agree with that.
    for (size_t r = 1; r < 3; ++r) {
        const int64_t clock = reports[r]->meta.start_utc_ns - reports[0]->meta.start_utc_ns;
        CHECK(std::abs(c.alignment.offsets_ns[r] - clock) < 1'000'000);
    }
    // Rank 4 comes last to most MPI_Allreduce: the others wait for it (it spent 31 ms in them,
    // rank 2 242 ms, rank 6 505 ms).
    REQUIRE(c.straggler.report == 0);
    CHECK(c.straggler.basis == "collectives");
    CHECK(c.straggler.collectives == 1002);
    CHECK(c.straggler.times_last > 500);
    CHECK(c.straggler.caused_wait_ns == c.ranks[0].caused_wait_ns);
    CHECK(c.straggler.excess_ns > 0);
    CHECK(c.ranks[0].wait_ns < c.ranks[1].wait_ns);
    CHECK(c.ranks[1].wait_ns < c.ranks[2].wait_ns);
    int64_t waited = 0, caused = 0;
    for (const RankMetrics& m : c.ranks) {
        waited += m.wait_ns;
        caused += m.caused_wait_ns;
    }
    CHECK(waited == caused);
}
