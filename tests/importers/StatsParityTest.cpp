#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>

#include "Absent.h"
#include "CsvCompare.h"
#include "ImportHelpers.h"
#include "analysis/Registry.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

// The total-time column of nsys stats summaries: the second field.
std::string secondField(const std::string& row) { return row.substr(0, row.find(',', row.find(',') + 1)); }

void checkSameTable(const std::string& expected, const std::string& actual) {
    test::checkSameTable(expected, actual, secondField);
}

// The fields up to and including field `n` (0-based) of a CSV row whose first fields are
// numbers: the column a report is sorted by, rows equal in it coming in any order.
std::function<std::string(const std::string&)> upToField(size_t n) {
    return [n](const std::string& row) {
        size_t at = std::string::npos, from = 0;
        for (size_t i = 0; i <= n; ++i) {
            at = row.find(',', from);
            if (at == std::string::npos) break;
            from = at + 1;
        }
        return row.substr(0, at);
    };
}

// Field `n` (0-based) of a CSV row whose fields up to n are not quoted.
std::function<std::string(const std::string&)> field(size_t n) {
    return [n](const std::string& row) {
        size_t from = 0;
        for (size_t i = 0; i < n && from != std::string::npos; ++i) {
            from = row.find(',', from);
            if (from != std::string::npos) ++from;
        }
        return from == std::string::npos ? std::string() : row.substr(from, row.find(',', from) - from);
    };
}

// The column each report is ordered by: start for traces (the projected start for
// nvtx_gpu_proj_trace), the average total for cuda_kern_exec_sum, the range and style for
// nvtx_kern_sum, the total time (second field) for the summaries.
std::function<std::string(const std::string&)> orderColumn(std::string_view report) {
    if (report == "nvtx_gpu_proj_trace") return field(1);
    if (report.ends_with("_trace")) return upToField(0);
    if (report == "cuda_kern_exec_sum") return upToField(5);
    return upToField(1);
}

// Every registry report of `report` against nsys 2025.3's CSV in `expectedDir`: the same bytes,
// rows equal in the order column in any order; an empty expected file wants empty output.
// `gaps` lists reports whose data the model does not hold yet for this file (their output is
// then checked to be empty, the rest skipped); `skipped`, reports not compared.
void checkAllReports(const Report& report, const std::filesystem::path& expectedDir,
                     const std::vector<std::string_view>& gaps = {},
                     const std::vector<std::string_view>& skipped = {}) {
    for (const StatsReportEntry& entry : statsReports()) {
        if (std::find(skipped.begin(), skipped.end(), entry.name) != skipped.end()) continue;
        INFO(expectedDir.string() << " " << entry.name);
        const auto table = computeStats(report, entry.name);
        REQUIRE(table);
        const std::string actual = toCsv(*table);
        if (std::find(gaps.begin(), gaps.end(), entry.name) != gaps.end()) {
            CHECK(actual.empty());
            continue;
        }
        const std::string expected = expectedCsv(expectedDir / (std::string(entry.name) + ".csv"));
        if (expected.empty()) {
            CHECK(actual.empty());
            continue;
        }
        if (actual == expected) continue;
        test::checkSameTable(expected, actual, orderColumn(entry.name));
    }
}

// The span of the last NVTX range named `name`; empty when there is none.
TimeRange nvtxRangeSpan(const Report& r, std::string_view name) {
    TimeRange span{0, 0};
    for (const Lane& l : r.lanes)
        for (size_t i = 0; i < l.events.size(); ++i)
            if (l.kind == LaneKind::Nvtx && r.str(l.events.name_id[i]) == name)
                span = {l.events.start_ns[i], l.events.endNs(i)};
    return span;
}

}  // namespace

TEST_CASE("every stats report equals nsys stats 2025.3 on our own captures") {
    for (const char* name : {"train_1gpu", "ddp_rank0", "ddp_rank1", "train_metrics", "cpu_1gpu"}) {
        const auto r = importOk(dataFile(std::string("nsys-2025.3/") + name + ".sqlite"));
        checkAllReports(*r, dataFile(std::string("expected/") + name));
    }
}

// CUDA graphs traced per graph and per node, unified memory, CUDA event records, torch.compile
// (Triton kernels launched through the driver API; replayed as CUDA graphs), both ranks of a DDP
// job in one report (two processes whose correlation ids repeat): read from the
// export and natively, every table equals nsys's (graph executions stay out of them, as nsys
// leaves them out).
TEST_CASE("every stats report equals nsys stats 2025.3 on today's captures, from the export and natively") {
    for (const char* name : {"cuda_graphs", "cuda_graphs_nodes", "unified_memory", "torch_compile",
                             "torch_compile_graphs", "ddp_both_ranks", "two_gpus_one_process", "occupancy"})
        for (const char* ext : {".sqlite", ".nsys-rep"}) {
            INFO(name << ext);
            const auto r = importOk(dataFile(std::string("nsys-2025.3/") + name + ext));
            checkAllReports(*r, dataFile(std::string("expected/") + name));
        }
}

TEST_CASE("every stats report equals nsys stats 2025.3 on the 2025.3 exports of older reports (../shared)",
          "[more-reports]") {
    const auto expected = sharedFile("expected");
    const auto cpu = sharedFile("nsys-2025.3-exports/cpu_nvtx_threads.sqlite");
    if (expected.empty() || cpu.empty()) {
        LANESCOPE_SKIP_ABSENT("../shared/corpus/nsys-2025.3-exports");
    }
    checkAllReports(*importOk(cpu), expected / "cpu_nvtx_threads");
    const auto dir = tempDir("stats-exports");
    const auto baseline = sharedFile("nsys-2025.3-exports/openhackathons-org__AI-Profiler__baseline_nvtx.sqlite.xz");
    REQUIRE(!baseline.empty());
    checkAllReports(*importOk(inflatedXz(baseline, dir)), expected / "baseline_nvtx");
    for (const char* rank : {"3", "4", "6"}) {
        const auto xz = sharedFile(std::string("nsys-2025.3-exports/openhackathons-org__gpubootcamp__report") + rank +
                                   ".sqlite.xz");
        REQUIRE(!xz.empty());
        checkAllReports(*importOk(inflatedXz(xz, dir)), expected / (std::string("mpi_report") + rank));
        // The 2020.5 file itself records MPI calls as NVTX ranges of the "MPI" domain: read
        // natively, they are MPI calls too, and the NVTX summary leaves them out as 2025.3 does.
        const auto qdrep =
            sharedFile(std::string("public/mpi-jacobi/openhackathons-org__gpubootcamp__report") + rank + ".qdrep");
        const auto native = importOk(qdrep);
        for (const char* name : {"mpi_event_sum", "nvtx_sum", "nvtx_pushpop_sum"}) {
            INFO(qdrep.filename().string() << " " << name);
            CHECK(toCsv(*computeStats(*native, name)) ==
                  expectedCsv(expected / (std::string("mpi_report") + rank) / (std::string(name) + ".csv")));
        }
    }
    std::filesystem::remove_all(dir);
}

// A PyTorch trace has no nsys export: nsys stats 2025.3 ran on Lanescope's SQLite export of one
// (tests/data/README.md). Its scripts nest a thread's NVTX ranges across the trace's operator
// and Python lanes, name threads from ThreadNames, order equal projections by RangeId: every
// table must equal Lanescope's own.
TEST_CASE("every stats report equals nsys stats 2025.3 run on Lanescope's export of a PyTorch trace") {
    const auto r = importOk(dataFile("kineto/pytorch_profiled_gpu.pt.trace.json.gz"));
    checkAllReports(*r, dataFile("expected-on-lanescope-export/pytorch_profiled_gpu"));
    // A model under torch.compile: some kernels' launching calls are not in the trace, which
    // nvtx_kern_sum lists first with empty PID and TID, as nsys's left join gives them.
    checkAllReports(*importOk(dataFile("kineto/torch_compile.pt.trace.json.gz")),
                    dataFile("expected-on-lanescope-export/torch_compile_kineto"));
}

// The same on two public traces (../shared): HTA's rank-0 PyTorch trace and a Perfetto trace.
// cuda_api_trace is left out on the PyTorch one: a thread there has the negative id
// -247463936, which nsys's 24-bit tid in globalTid holds as 4194304 (docs/sql.md).
TEST_CASE("every stats report equals nsys stats 2025.3 run on Lanescope's export of public traces (../shared)",
          "[more-reports]") {
    const auto hta =
        sharedFile("public/facebookresearch__HolisticTraceAnalysis__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
    const auto atrium = sharedFile("public/vospascal__atrium__trace.pftrace");
    if (hta.empty() || atrium.empty()) LANESCOPE_SKIP_ABSENT("../shared/corpus/public");
    checkAllReports(*importOk(hta), dataFile("expected-on-lanescope-export/hta_rank0"), {}, {"cuda_api_trace"});
    checkAllReports(*importOk(atrium), dataFile("expected-on-lanescope-export/atrium"));
}

TEST_CASE("stats report options: :base names kernels by their short names; unknown options are refused") {
    const auto r = importOk(dataFile("nsys-2025.3/train_1gpu.sqlite"));
    const auto full = computeStats(*r, "cuda_gpu_kern_sum");
    const auto base = computeStats(*r, "cuda_gpu_kern_sum:base");
    REQUIRE(full);
    REQUIRE(base);
    int64_t fullCount = 0, baseCount = 0;
    for (const auto& row : full->rows) fullCount += std::get<int64_t>(row[2]);
    for (const auto& row : base->rows) baseCount += std::get<int64_t>(row[2]);
    CHECK(baseCount == fullCount);
    CHECK(base->rows.size() <= full->rows.size());
    for (const auto& row : base->rows) CHECK(std::get<std::string>(row.back()).find('(') == std::string::npos);
    CHECK(parseStatsRequest("um_sum:rows=5").error.empty());
    CHECK_FALSE(parseStatsRequest("cuda_gpu_kern_sum:rows=5").error.empty());
    CHECK_FALSE(parseStatsRequest("cuda_gpu_kern_sum:mangled").error.empty());
    CHECK_FALSE(computeStats(*r, "cuda_gpu_kern_sum:bogus"));
}

TEST_CASE("every stats report counts only the events lying wholly inside a range") {
    const auto r = importOk(dataFile("nsys-2025.3/train_1gpu.sqlite"));
    const TimeRange everything{r->meta.begin_ns, r->meta.end_ns};
    const TimeRange nothing{r->meta.begin_ns - 2, r->meta.begin_ns - 1};
    for (const StatsReportEntry& entry : statsReports()) {
        INFO(entry.name);
        CHECK(toCsv(*computeStats(*r, entry.name, everything)) == toCsv(*computeStats(*r, entry.name)));
        CHECK(computeStats(*r, entry.name, nothing)->rows.empty());
    }
}

// nsys 2022.4 names default-domain ranges without the leading ':' of 2025.3.
std::string withoutDomainColon(std::string csv) {
    for (size_t at; (at = csv.find(",:")) != std::string::npos;) csv.erase(at + 1, 1);
    for (size_t at; (at = csv.find(",\":")) != std::string::npos;) csv.erase(at + 2, 1);
    return csv;
}

TEST_CASE("stats equal nsys 2022.4's own nvtxsum and osrtsum on its own capture") {
    const auto r = importOk(dataFile("nsys-2022.4/cpu_nvtx_threads.sqlite"));
    checkSameTable(readFile(dataFile("expected-2022.4/cpu_nvtx_threads/nvtxsum.csv")),
                   withoutDomainColon(toCsv(*computeStats(*r, "nvtx_sum"))));
    checkSameTable(readFile(dataFile("expected-2022.4/cpu_nvtx_threads/osrtsum.csv")),
                   toCsv(*computeStats(*r, "osrt_sum")));
}

std::vector<std::string> cells(const std::string& line) {
    std::vector<std::string> out(1);
    for (char c : line) {
        if (c == ',')
            out.emplace_back();
        else
            out.back().push_back(c);
    }
    return out;
}

// The same table, row by row, except that an average lying exactly halfway between two printed
// values may differ in its last digit: nsys 2022.4's openmpevtsum rounds 32881 ns / 20 =
// 1644.05 up, where Lanescope (as the 2025.3 reports, and printf) rounds the nearest double,
// 1644.04999..., down. Columns: Time (%), Total, Count, Avg, ...
void checkSameUpToHalfwayAverages(const std::string& expected, const std::string& actual) {
    const auto e = lines(expected), a = lines(actual);
    REQUIRE(a.size() == e.size());
    CHECK(a[0] == e[0]);
    for (size_t i = 1; i < e.size(); ++i) {
        auto ec = cells(e[i]), ac = cells(a[i]);
        REQUIRE(ec.size() == ac.size());
        if (ec[3] != ac[3]) {
            INFO(e[i]);
            const int64_t total = std::stoll(ec[1]), count = std::stoll(ec[2]);
            CHECK((20 * total % count == 0 && 10 * total % count != 0));  // tenths end in exactly .5
            CHECK(std::abs(std::stod(ec[3]) - std::stod(ac[3])) == Approx(0.1));
            ec[3] = ac[3];
        }
        CHECK(ac == ec);
    }
}

// nsys 2022.4 names the report openmpevtsum; 2025.3 could not be run on this capture (made
// here, CPU only), so this is the only OpenMP summary printed by Nsight Systems at hand.
TEST_CASE("openmp_sum equals nsys 2022.4's openmpevtsum on its own OpenMP capture, both readers") {
    for (const char* file : {"nsys-2022.4/openmp_loops.sqlite", "nsys-2022.4/openmp_loops.nsys-rep"}) {
        INFO(file);
        const auto r = importOk(dataFile(file));
        checkSameUpToHalfwayAverages(readFile(dataFile("expected-2022.4/openmp_loops/openmpevtsum.csv")),
                                     toCsv(*computeStats(*r, "openmp_sum")));
        checkSameTable(readFile(dataFile("expected-2022.4/openmp_loops/osrtsum.csv")),
                       toCsv(*computeStats(*r, "osrt_sum")));
    }
}

TEST_CASE("stats equal nsys 2022.4 on the public 2022.2 capture (../shared/corpus/public)", "[more-reports]") {
    const auto path = sharedFile("public/openhackathons-org__AI-Profiler__baseline_nvtx.sqlite");
    if (path.empty()) {
        LANESCOPE_SKIP_ABSENT("../shared/corpus/public (baseline_nvtx)");
    }
    const auto r = importOk(path);
    checkSameTable(readFile(dataFile("expected-2022.4/baseline_nvtx/nvtxsum.csv")),
                   withoutDomainColon(toCsv(*computeStats(*r, "nvtx_sum"))));
    checkSameTable(readFile(dataFile("expected-2022.4/baseline_nvtx/osrtsum.csv")),
                   toCsv(*computeStats(*r, "osrt_sum")));
    checkSameTable(readFile(dataFile("expected-2022.4/baseline_nvtx/cudaapisum.csv")),
                   toCsv(*computeStats(*r, "cuda_api_sum")));
}

TEST_CASE("a time range counts exactly the events lying wholly inside it") {
    const auto r = importOk(dataFile("nsys-2025.3/train_1gpu.sqlite"));
    // The whole span gives the unrestricted numbers.
    const TimeRange everything{r->meta.begin_ns, r->meta.end_ns};
    CHECK(toCsv(*computeStats(*r, "cuda_gpu_kern_sum", everything)) == toCsv(*computeStats(*r, "cuda_gpu_kern_sum")));
    // The span of "step 3" holds exactly one "data" range and one "step 3".
    const TimeRange step = nvtxRangeSpan(*r, "step 3");
    REQUIRE(step.end_ns > step.begin_ns);
    const auto nvtx = computeStats(*r, "nvtx_sum", step);
    std::map<std::string, int64_t> instances;
    for (const auto& row : nvtx->rows) instances[std::get<std::string>(row[9])] = std::get<int64_t>(row[2]);
    CHECK(instances.size() == 8);  // step 3 and its seven kinds of children
    CHECK(instances[":step 3"] == 1);
    CHECK(instances[":data"] == 1);
    CHECK(instances[":conv"] == 1);
    // Kernels of that step: count them directly.
    int64_t kernels = 0;
    for (const Lane& l : r->lanes)
        if (l.kind == LaneKind::GpuStream)
            for (size_t i = 0; i < l.events.size(); ++i)
                kernels +=
                    l.events.kind[i] == EventKind::Kernel && step.contains(l.events.start_ns[i], l.events.endNs(i));
    int64_t counted = 0;
    const auto kernelTable = computeStats(*r, "cuda_gpu_kern_sum", step);
    for (const auto& row : kernelTable->rows) counted += std::get<int64_t>(row[2]);
    CHECK(counted == kernels);
    CHECK(kernels > 0);
    CHECK(kernels < 1950);
}

TEST_CASE("trace reports under a range: the rows inside it, with the whole report's ids and nesting") {
    const auto r = importOk(dataFile("nsys-2025.3/train_1gpu.sqlite"));
    const TimeRange step = nvtxRangeSpan(*r, "step 3");
    REQUIRE(step.end_ns > step.begin_ns);
    for (const char* name : {"nvtx_pushpop_trace", "nvtx_gpu_proj_trace", "cuda_api_trace", "nvtx_kern_sum"}) {
        INFO(name);
        const auto all = lines(toCsv(*computeStats(*r, name)));
        const auto part = lines(toCsv(*computeStats(*r, name, step)));
        REQUIRE(part.size() > 1);
        CHECK(part.size() < all.size());
        if (std::string_view(name) == "nvtx_kern_sum") continue;  // sums change with the range
        for (const auto& row : part) CHECK(std::find(all.begin(), all.end(), row) != all.end());
    }
    // step 3 and its seven children, the step at level 0 with them below it.
    const auto pushpop = computeStats(*r, "nvtx_pushpop_trace", step);
    REQUIRE(pushpop->rows.size() == 8);
    CHECK(std::get<std::string>(pushpop->rows[0][5]) == ":step 3");
    CHECK(std::get<int64_t>(pushpop->rows[0][9]) == 5);  // NumChild: data, copy, forward, backward, optimizer
}

TEST_CASE("cuda_api_trace shows the calls that failed with their result code") {
    const auto r = importOk(dataFile("nsys-2025.3/ddp_rank0.sqlite"));
    const auto table = computeStats(*r, "cuda_api_trace");
    int failed = 0;
    for (const auto& row : table->rows)
        if (std::get<int64_t>(row[3]) != 0) {
            ++failed;
            CHECK(std::get<int64_t>(row[3]) == 600);  // cudaErrorNotReady
            CHECK(std::get<std::string>(row[2]) == "cudaEventQuery");
        }
    CHECK(failed == 2);
}
