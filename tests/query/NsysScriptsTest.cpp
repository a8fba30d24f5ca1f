// Tools written for nsys exports, run on Lanescope's: the installed Nsight Systems' own `nsys
// stats` and `nsys analyze` scripts (2022.4 here and in CI) print the same bytes on Lanescope's
// SQLite export of a report as on nsys 2025.3's export of it. nsys 2022.4 cannot open a
// 2025.3 report itself: through the export its scripts read reports of every version, and
// PyTorch traces.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "Absent.h"
#include "TestPaths.h"
#include "analysis/Registry.h"
#include "importers/ImportHelpers.h"
#include "importers/nsys/NsysLocator.h"
#include "query/ReportSql.h"
#include "query/SqliteExport.h"

namespace lanescope::test {
namespace {

// Every `nsys stats` report of 2022.4 that reads CUDA, NVTX, OS runtime, OpenMP or unified
// memory data (the graphics APIs' are left out: no report here has any), but the NVTX projection.
constexpr const char* kStatsReports =
    "cudaapisum,cudaapitrace,gpukernsum,gpumemsizesum,gpumemtimesum,gpusum,gputrace,apigpusum,kernexecsum,"
    "kernexectrace,nvtxsum,nvtxppsum,nvtxpptrace,nvtxsesum,nvtxkernsum,osrtsum,openmpevtsum,umcpupagefaults,"
    "unifiedmemory,unifiedmemorytotals";
// The NVTX projection, whose script takes a minute on baseline_nvtx (13 k ranges): run on the
// smaller reports only.
constexpr const char* kProjection = ",nvtxgpuproj";

// What nsys's scripts print on an export, file by file: "stats_<report>.csv" and
// "rules_<rule>.csv" (a report or rule skipped for want of data writes no file).
std::map<std::string, std::string> scriptsOutput(const std::filesystem::path& nsys,
                                                 const std::filesystem::path& exported,
                                                 const std::filesystem::path& dir, bool projection) {
    std::filesystem::create_directories(dir);
    const std::string quiet = " > '" + (dir / "log").string() + "' 2>&1";
    const std::string reports = std::string(kStatsReports) + (projection ? kProjection : "");
    const std::string stats = "'" + nsys.string() + "' stats -r " + reports + " -f csv -o '" +
                              (dir / "stats").string() + "' '" + exported.string() + "'" + quiet;
    const std::string rules = "'" + nsys.string() + "' analyze -f csv -o '" + (dir / "rules").string() + "' '" +
                              exported.string() + "' >> '" + (dir / "log").string() + "' 2>&1";
    INFO(stats);
    CHECK(std::system(stats.c_str()) == 0);
    CHECK(std::system(rules.c_str()) == 0);
    std::map<std::string, std::string> printed;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".csv") printed[entry.path().filename().string()] = readFile(entry.path());
    return printed;
}

// Lanescope's export of `report`, written into `dir`.
std::filesystem::path lanescopeExport(const Report& report, const std::filesystem::path& dir) {
    std::string error;
    auto session = sql::ReportSql::open(report, error);
    REQUIRE(session);
    const auto out = dir / "lanescope.sqlite";
    REQUIRE(sql::exportSqlite(*session, report, out, {}) == "");
    return out;
}

// nsys's scripts on Lanescope's export of `report` and on nsys's export of it: the same files,
// byte for byte, and at least `printedAtLeast` of them not empty (so both printing nothing
// cannot pass).
void checkSameOutput(const std::filesystem::path& nsys, const std::filesystem::path& report,
                     const std::filesystem::path& nsysExport, size_t printedAtLeast, bool projection = true) {
    INFO(report.filename().string());
    const auto dir = tempDir("nsys-scripts");
    const auto ours = scriptsOutput(nsys, lanescopeExport(*importOk(report), dir), dir / "ours", projection);
    const auto theirs = scriptsOutput(nsys, nsysExport, dir / "theirs", projection);
    for (const auto& [file, text] : theirs) {
        INFO(file);
        REQUIRE(ours.count(file) == 1);
        CHECK(ours.at(file) == text);
    }
    for (const auto& [file, text] : ours) {
        INFO(file << " (printed only on Lanescope's export)");
        CHECK(theirs.count(file) == 1);
    }
    const auto printed = std::count_if(theirs.begin(), theirs.end(), [](const auto& f) { return !f.second.empty(); });
    CHECK(size_t(printed) >= printedAtLeast);
    std::filesystem::remove_all(dir);
}

}  // namespace

TEST_CASE("nsys stats and analyze print the same on Lanescope's export of a 2025.3 report as on nsys's", "[sql]") {
    const auto nsys = locateNsys({});
    if (nsys.empty()) LANESCOPE_SKIP_ABSENT("nsys (LANESCOPE_WITH_NSYS=1 ./test installs it)");
    for (const char* name : {"train_1gpu", "cpu_1gpu", "cuda_graphs", "cuda_graphs_nodes", "ddp_rank0", "ddp_rank1",
                             "train_metrics", "unified_memory", "torch_compile", "torch_compile_graphs",
                             "ddp_both_ranks", "two_gpus_one_process", "occupancy"}) {
        const std::string base = std::string("nsys-2025.3/") + name;
        checkSameOutput(nsys, dataFile(base + ".nsys-rep"), dataFile(base + ".sqlite"), 10);
    }
}

TEST_CASE("nsys stats and analyze print the same on Lanescope's export of 2020 to 2022 reports as on nsys's", "[sql]") {
    const auto nsys = locateNsys({});
    if (nsys.empty()) LANESCOPE_SKIP_ABSENT("nsys (LANESCOPE_WITH_NSYS=1 ./test installs it)");
    const auto exports = sharedFile("nsys-2025.3-exports");
    if (exports.empty()) LANESCOPE_SKIP_ABSENT("../shared/corpus/nsys-2025.3-exports");
    checkSameOutput(nsys, dataFile("nsys-2022.4/cpu_nvtx_threads.nsys-rep"), exports / "cpu_nvtx_threads.sqlite", 3);
    const auto dir = tempDir("nsys-scripts-public");
    checkSameOutput(nsys, sharedFile("public/openhackathons-org__AI-Profiler__baseline_nvtx.nsys-rep"),
                    inflatedXz(exports / "openhackathons-org__AI-Profiler__baseline_nvtx.sqlite.xz", dir), 10, false);
    for (const char* rank : {"3", "4", "6"}) {
        const std::string name = std::string("openhackathons-org__gpubootcamp__report") + rank;
        checkSameOutput(nsys, sharedFile("public/mpi-jacobi/" + name + ".qdrep"),
                        inflatedXz(exports / (name + ".sqlite.xz"), dir), 10, false);
    }
    std::filesystem::remove_all(dir);
}

// No nsys export exists for a PyTorch trace: nsys's scripts on Lanescope's export of one print
// what Lanescope's own statistics print, where their tables have the same shape.
TEST_CASE("nsys stats on Lanescope's export of a PyTorch trace equals Lanescope's own statistics", "[sql]") {
    const auto nsys = locateNsys({});
    if (nsys.empty()) LANESCOPE_SKIP_ABSENT("nsys (LANESCOPE_WITH_NSYS=1 ./test installs it)");
    const auto report = importOk(dataFile("kineto/pytorch_profiled_gpu.pt.trace.json.gz"));
    const auto dir = tempDir("nsys-scripts-kineto");
    const auto printed = scriptsOutput(nsys, lanescopeExport(*report, dir), dir / "scripts", false);
    for (const auto& [script, ours] :
         {std::pair{"cudaapisum", "cuda_api_sum"}, {"gpukernsum", "cuda_gpu_kern_gb_sum"}}) {
        INFO(script << " and " << ours);
        const auto table = computeStats(*report, ours);
        REQUIRE(table);
        REQUIRE(printed.count(std::string("stats_") + script + ".csv") == 1);
        const std::string expected = toCsv(*table);
        CHECK(std::count(expected.begin(), expected.end(), '\n') > 10);
        CHECK(printed.at(std::string("stats_") + script + ".csv") == expected);
    }
    std::filesystem::remove_all(dir);
}

}  // namespace lanescope::test
