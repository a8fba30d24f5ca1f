// Rank summaries: what `lanescope-cli summarize` writes, read back, gives the same comparison
// as the full reports (the DDP pair and the three MPI jacobi ranks); newer versions and damaged
// summaries are refused in one line. And the job at a glance (RankSpread).
#include <catch2/catch.hpp>
#include <fstream>

#include "Absent.h"
#include "TestPaths.h"
#include "analysis/ranks/RankSpread.h"
#include "analysis/ranks/RankSummary.h"
#include "importers/ImportHelpers.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

void requireSame(const RankComparison& a, const RankComparison& b) {
    CHECK(a.alignment.mode == b.alignment.mode);
    CHECK(a.alignment.offsets_ns == b.alignment.offsets_ns);
    CHECK(a.alignment.reference == b.alignment.reference);
    CHECK(a.alignment.matches == b.alignment.matches);
    CHECK(a.alignment.residual_median_ns == b.alignment.residual_median_ns);
    CHECK(a.alignment.residual_max_ns == b.alignment.residual_max_ns);
    CHECK(a.alignment.notes == b.alignment.notes);
    CHECK(a.collectives_from == b.collectives_from);
    REQUIRE(a.ranks.size() == b.ranks.size());
    for (size_t i = 0; i < a.ranks.size(); ++i) {
        const RankMetrics &x = a.ranks[i], &y = b.ranks[i];
        INFO("rank " << i);
        CHECK(x.label == y.label);
        CHECK(x.rank == y.rank);
        CHECK(x.offset_ns == y.offset_ns);
        REQUIRE(x.steps.size() == y.steps.size());
        for (size_t s = 0; s < x.steps.size(); ++s) {
            CHECK(x.steps[s].number == y.steps[s].number);
            CHECK(x.steps[s].start_ns == y.steps[s].start_ns);
            CHECK(x.steps[s].end_ns == y.steps[s].end_ns);
            CHECK(x.steps[s].range == y.steps[s].range);
        }
        CHECK(x.step_ns.total == y.step_ns.total);
        CHECK(x.shares.window_ns == y.shares.window_ns);
        CHECK(x.shares.compute_ns == y.shares.compute_ns);
        CHECK(x.shares.communication_ns == y.shares.communication_ns);
        CHECK(x.shares.overlap_ns == y.shares.overlap_ns);
        CHECK(x.shares.idle_ns == y.shares.idle_ns);
        REQUIRE(x.collectives.size() == y.collectives.size());
        for (const auto& [kind, t] : x.collectives) {
            CHECK(t.count == y.collectives.at(kind).count);
            CHECK(t.kernel_ns == y.collectives.at(kind).kernel_ns);
            CHECK(t.wait_ns == y.collectives.at(kind).wait_ns);
        }
        CHECK(x.wait_ns == y.wait_ns);
        CHECK(x.caused_wait_ns == y.caused_wait_ns);
        CHECK(x.times_last == y.times_last);
        REQUIRE(x.point_to_point.size() == y.point_to_point.size());
        for (const auto& [name, t] : x.point_to_point) {
            CHECK(t.count == y.point_to_point.at(name).count);
            CHECK(t.blocked_ns == y.point_to_point.at(name).blocked_ns);
        }
        CHECK(x.point_to_point_ns == y.point_to_point_ns);
    }
    REQUIRE(a.collectives.size() == b.collectives.size());
    for (size_t c = 0; c < a.collectives.size(); ++c) {
        const MatchedCollective &x = a.collectives[c], &y = b.collectives[c];
        CHECK(x.kind == y.kind);
        CHECK(x.ordinal == y.ordinal);
        CHECK(x.kernels == y.kernels);
        CHECK(x.arrival_ns == y.arrival_ns);
        CHECK(x.end_ns == y.end_ns);
        CHECK(x.wait_ns == y.wait_ns);
        CHECK(x.last == y.last);
        CHECK(x.present == y.present);
    }
    CHECK(a.straggler.report == b.straggler.report);
    CHECK(a.straggler.basis == b.straggler.basis);
    CHECK(a.straggler.caused_wait_ns == b.straggler.caused_wait_ns);
    CHECK(a.straggler.times_last == b.straggler.times_last);
    CHECK(a.straggler.collectives == b.straggler.collectives);
    CHECK(a.straggler.excess_ns == b.straggler.excess_ns);
}

// Summarizes each report into its own folder under `dir` and reads them back.
std::vector<RankInput> throughSummaries(const std::vector<std::unique_ptr<Report>>& reports,
                                        const std::filesystem::path& dir) {
    std::vector<RankInput> inputs;
    for (size_t i = 0; i < reports.size(); ++i) {
        const auto folder = dir / ("rank" + std::to_string(i));
        REQUIRE(writeRankSummary(*reports[i], folder) == "");
        REQUIRE(isRankSummary(folder));
        std::string error;
        auto in = readRankSummary(folder, error);
        INFO(error);
        REQUIRE(in);
        inputs.push_back(std::move(*in));
    }
    return inputs;
}

void replaceInFile(const std::filesystem::path& file, const std::string& from, const std::string& to) {
    std::string text = readFile(file);
    const size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
}

}  // namespace

TEST_CASE("rank summary: the DDP pair compares the same from summaries as from the reports") {
    std::vector<std::unique_ptr<Report>> reports;
    reports.push_back(importOk(dataFile("nsys-2025.3/ddp_rank0.sqlite")));
    reports.push_back(importOk(dataFile("nsys-2025.3/ddp_rank1.sqlite")));
    const auto dir = tempDir("rank-summary-ddp");
    const std::vector<RankInput> inputs = throughSummaries(reports, dir);
    CHECK(inputs[1].label == "rank 1");
    CHECK(inputs[1].rank_from == "environment");
    CHECK(inputs[1].file_name == "ddp_rank1.sqlite");
    CHECK(inputs[1].nccl.size() == 48);  // 24 AllReduce, 24 Broadcast
    for (AlignMode mode : {AlignMode::Auto, AlignMode::Nccl, AlignMode::Clock, AlignMode::None, AlignMode::Mpi}) {
        INFO(alignModeName(mode));
        requireSame(compareRanks(rawReports(reports), mode, {0, 125'000}),
                    compareRankInputs(inputs, mode, {0, 125'000}));
    }
    // Mixed: one report in full, one from its summary.
    requireSame(compareRanks(rawReports(reports), AlignMode::Auto),
                compareRankInputs({extractRankInput(*reports[0]), inputs[1]}, AlignMode::Auto));
    // The stats tables beside it are nsys's CSVs of the report.
    CHECK(readFile(dir / "rank0" / "cuda_gpu_kern_sum.csv")
              .starts_with("Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name"));
    CHECK(std::filesystem::file_size(dir / "rank0" / kRankSummaryFile) < 64 * 1024);
    std::filesystem::remove_all(dir);
}

TEST_CASE("rank summary: the three MPI jacobi ranks compare the same from summaries") {
    std::vector<std::unique_ptr<Report>> reports;
    for (const char* n : {"3", "4", "6"}) {
        const auto path =
            sharedFile(std::string("public/mpi-jacobi/openhackathons-org__gpubootcamp__report") + n + ".qdrep");
        if (path.empty()) LANESCOPE_SKIP_ABSENT("public/mpi-jacobi/openhackathons-org__gpubootcamp__report" << n);
        reports.push_back(importOk(path));
    }
    const auto dir = tempDir("rank-summary-mpi");
    const std::vector<RankInput> inputs = throughSummaries(reports, dir);
    CHECK(inputs[0].label == "rank 4");
    CHECK(inputs[0].rank_from == "recorded");
    CHECK(inputs[0].mpi.size() == 1002);
    const RankComparison fromSummaries = compareRankInputs(inputs, AlignMode::Auto);
    CHECK(fromSummaries.alignment.mode == AlignMode::Mpi);
    CHECK(fromSummaries.straggler.report == 0);
    requireSame(compareRanks(rawReports(reports), AlignMode::Auto), fromSummaries);
    requireSame(compareRanks(rawReports(reports), AlignMode::Clock), compareRankInputs(inputs, AlignMode::Clock));
    std::filesystem::remove_all(dir);
}

TEST_CASE("rank summary: newer versions and damaged summaries are refused in one line") {
    const auto report = importOk(dataFile("nsys-2025.3/ddp_rank0.sqlite"));
    const auto dir = tempDir("rank-summary-bad");
    const auto file = dir / kRankSummaryFile;
    std::string error;
    auto reread = [&] {
        std::filesystem::remove_all(dir);
        REQUIRE(writeRankSummary(*report, dir) == "");
        return readFile(file);
    };

    reread();
    replaceInFile(file, "\"version\": 1,", "\"version\": 2,");
    CHECK_FALSE(readRankSummary(dir, error));
    CHECK(error.find("rank summary version 2 is newer than this Lanescope reads (1)") != std::string::npos);
    CHECK(error.find('\n') == std::string::npos);

    const std::string text = reread();
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text.substr(0, text.size() / 2);
    CHECK_FALSE(readRankSummary(dir, error));
    CHECK(error.find("not JSON") != std::string::npos);

    reread();
    replaceInFile(file, "\"kind\": [0,", "\"kind\": [");  // one kind fewer than starts
    CHECK_FALSE(readRankSummary(dir, error));
    CHECK(error.find("damaged rank summary: columns of different lengths") != std::string::npos);

    reread();
    replaceInFile(file, "\"kind\": [0,", "\"kind\": [7,");  // no kind 7
    CHECK_FALSE(readRankSummary(dir, error));
    CHECK(error.find("'kind' holds a value that is not an integer in range") != std::string::npos);

    reread();
    replaceInFile(file, "\"format\": \"lanescope-rank-summary\"", "\"format\": \"something-else\"");
    CHECK_FALSE(readRankSummary(dir, error));
    CHECK(error.find("not a Lanescope rank summary") != std::string::npos);

    std::filesystem::remove(file);
    CHECK_FALSE(isRankSummary(dir));
    CHECK_FALSE(readRankSummary(dir, error));
    CHECK(error.find("cannot read") != std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST_CASE("ranks at a glance: slowest and fastest rank per step, skew percentiles") {
    std::vector<int64_t> hundred;
    for (int64_t v = 100; v >= 1; --v) hundred.push_back(v);
    const SkewPercentiles p = skewPercentiles(hundred);
    CHECK(p.count == 100);
    CHECK(p.p50_ns == 50);
    CHECK(p.p90_ns == 90);
    CHECK(p.p99_ns == 99);
    CHECK(p.max_ns == 100);
    CHECK(skewPercentiles({7}).p50_ns == 7);
    CHECK(skewPercentiles({}).count == 0);

    std::vector<std::unique_ptr<Report>> reports;
    reports.push_back(importOk(dataFile("nsys-2025.3/ddp_rank0.sqlite")));
    reports.push_back(importOk(dataFile("nsys-2025.3/ddp_rank1.sqlite")));
    const RankComparison c = compareRanks(rawReports(reports), AlignMode::Nccl);
    const RankSpread spread = rankSpread(c);
    REQUIRE(spread.steps.size() == 12);
    for (const StepSpread& s : spread.steps) {
        INFO("step " << s.number);
        CHECK(s.ranks == 2);
        CHECK(s.slowest != s.fastest);
        CHECK(s.slowest_ns >= s.fastest_ns);
        // Its durations are the ranks' own.
        const auto duration = [&](int r) {
            for (const StepRange& st : c.ranks[size_t(r)].steps)
                if (st.number == s.number) return st.end_ns - st.start_ns;
            return int64_t{-1};
        };
        CHECK(duration(s.slowest) == s.slowest_ns);
        CHECK(duration(s.fastest) == s.fastest_ns);
    }
    CHECK(spread.step_end_skew.count == 12);
    CHECK(spread.step_end_skew.max_ns >= spread.step_end_skew.p50_ns);
    CHECK(spread.arrival_skew.count == 48);  // every matched collective ran on both
    CHECK(spread.arrival_skew.p50_ns > 0);
}
