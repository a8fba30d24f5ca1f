// The registry of statistics reports and rules: names, lookup, and that running a report or
// rule through it gives the table nsys gives (the corpus's expected CSVs).
#include <atomic>
#include <memory>
#include <set>

#include "CsvCompare.h"
#include "TestPaths.h"
#include "analysis/Cancellation.h"
#include "analysis/GpuGaps.h"
#include "analysis/Registry.h"
#include "importers/Importer.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

std::unique_ptr<Report> train1gpu() {
    NullProgress progress;
    ImportResult result = importFile(dataFile("nsys-2025.3/train_1gpu.sqlite"), {}, progress);
    REQUIRE(result.ok());
    return std::move(result.report());
}

}  // namespace

TEST_CASE("registry: every name once, found by name, unknown names not found") {
    std::set<std::string_view> names;
    for (const StatsReportEntry& entry : statsReports()) {
        CHECK(names.insert(entry.name).second);
        CHECK(findStatsReport(entry.name) == &entry);
        CHECK(!entry.title.empty());
    }
    for (const RuleEntry& entry : rules()) {
        CHECK(names.insert(entry.name).second);
        CHECK(findRule(entry.name) == &entry);
    }
    CHECK(names.count("nvtx_gpu_proj_sum"));
    CHECK(names.count("gpu_gaps"));
    CHECK(findStatsReport("no_such_report") == nullptr);
    CHECK(findRule("cuda_gpu_kern_sum") == nullptr);
    const Report empty;
    CHECK_FALSE(computeStats(empty, "no_such_report"));
}

TEST_CASE("registry: computeAllStats gives every report in registry order, equal to nsys") {
    const auto report = train1gpu();
    const std::vector<StatsTable> all = computeAllStats(*report);
    REQUIRE(all.size() == statsReports().size());
    for (size_t i = 0; i < all.size(); ++i) {
        const std::string name(statsReports()[i].name);
        INFO(name);
        CHECK(all[i].name == name);
        const auto expected = lines(expectedCsv(dataFile("expected/train_1gpu/" + name + ".csv")));
        const auto actual = lines(toCsv(all[i]));
        REQUIRE(actual.size() == expected.size());
        if (!expected.empty()) CHECK(actual[0] == expected[0]);
    }
}

TEST_CASE("registry: gpu_gaps as a rule equals nsys analyze, with a finding per row") {
    const auto report = train1gpu();
    const RuleEntry* gaps = findRule("gpu_gaps");
    REQUIRE(gaps);
    const RuleResult result = gaps->run(*report, RuleOptions{{{"gap", "1"}}});
    CHECK(toCsv(result.table) == readFile(dataFile("expected/train_1gpu/gpu_gaps_1ms.csv")));
    REQUIRE(result.findings.size() == result.table.rows.size());
    REQUIRE(!result.findings.empty());
    for (const RuleFinding& f : result.findings) CHECK(f.end_ns > f.begin_ns);
    // The default 500 ms finds nothing in this report, as nsys.
    CHECK(gaps->run(*report, {}).table.rows.empty());
    CHECK_THROWS_WITH(gapOptionsFrom(RuleOptions{{{"gap", "-1"}}}), "gap must be >= 0");
    CHECK_THROWS_WITH(gapOptionsFrom(RuleOptions{{{"gap", "x"}}}), "bad value for gap: x");
}

// A computation under a set cancellation flag stops with Cancelled, on every thread it uses;
// an unset flag changes nothing.
TEST_CASE("registry: statistics stop when their cancellation flag is set") {
    const auto report = train1gpu();
    const std::vector<bool> all(statsReports().size(), true);
    auto flag = std::make_shared<std::atomic<bool>>(false);
    {
        const CancelScope scope(flag);
        CHECK(computeSomeStats(*report, TimeRange::all(), all, 2).size() == statsReports().size());
        flag->store(true);
        CHECK_THROWS_AS(computeSomeStats(*report, TimeRange::all(), all, 2), Cancelled);
        CHECK_THROWS_AS(computeStats(*report, "cuda_gpu_trace"), Cancelled);
        CHECK_THROWS_AS(findGpuGaps(*report, GapOptions{1.0, -1, TimeRange::all()}), Cancelled);
    }
    CHECK_NOTHROW(cancellationPoint());  // the scope is gone with its flag
    CHECK(computeStats(*report, "cuda_gpu_kern_sum")->rows.size() > 0);
}

TEST_CASE("registry: a trace's first rows only, or each row handed over as made, and its CSV written in pieces") {
    const auto report = train1gpu();
    size_t traces = 0;
    for (const StatsReportEntry& entry : statsReports()) {
        INFO(entry.name);
        const StatsTable whole = entry.compute(*report, TimeRange::all(), {});
        // Cut at its first 100 rows: those rows, and the rest counted.
        StatsOptions firstRows;
        firstRows.trace_rows = 100;
        const StatsTable cut = entry.compute(*report, TimeRange::all(), firstRows);
        CHECK(cut.header == whole.header);
        CHECK(cut.rows.size() + cut.rows_left_out == whole.rows.size());
        if (!isSummaryReport(entry) && whole.rows.size() > 100) {
            ++traces;
            CHECK(cut.rows.size() == 100);
            CHECK(toCsv(cut) ==
                  toCsv(StatsTable{whole.name, whole.header, {whole.rows.begin(), whole.rows.begin() + 100}}));
        }
        // Handed over row by row: the same rows, none kept.
        StatsTable handed{whole.name, whole.header, {}};
        StatsOptions eachRow;
        eachRow.on_trace_row = [&](const StatsTable& table, std::vector<StatsTable::Cell>&& row) {
            CHECK(table.header == whole.header);
            handed.rows.push_back(std::move(row));
        };
        const StatsTable streamed = entry.compute(*report, TimeRange::all(), eachRow);
        if (!isSummaryReport(entry)) {
            CHECK(streamed.rows.empty());
            CHECK(toCsv(handed) == toCsv(whole));
        }
        // The CSV written in pieces is toCsv of the whole table.
        std::string written;
        CHECK(writeStatsCsv(entry, *report, TimeRange::all(), {}, [&](std::string_view text) {
            written += text;
            return true;
        }));
        CHECK(written == toCsv(whole));
        CHECK_FALSE(writeStatsCsv(entry, *report, TimeRange::all(), {}, [](std::string_view) { return false; }));
    }
    CHECK(traces ==
          5);  // cuda_gpu_trace, cuda_kern_exec_trace, nvtx_pushpop_trace, nvtx_gpu_proj_trace, cuda_api_trace
}
