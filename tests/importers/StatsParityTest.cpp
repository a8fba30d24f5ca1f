#include <algorithm>

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

}  // namespace

TEST_CASE("stats CSV equals nsys stats 2025.3 on train_1gpu and both DDP ranks") {
    for (const char* report : {"train_1gpu", "ddp_rank0", "ddp_rank1"}) {
        const auto r = importOk(dataFile(std::string("nsys-2025.3/") + report + ".sqlite"));
        for (const StatsReportEntry& entry : statsReports()) {
            const std::string_view name = entry.name;
            INFO(report << " " << name);
            const auto table = computeStats(*r, name);
            REQUIRE(table);
            checkSameTable(readFile(dataFile(std::string("expected/") + report + "/" + std::string(name) + ".csv")),
                           toCsv(*table));
        }
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

TEST_CASE("stats equal nsys 2022.4 on the public 2022.2 capture (../shared/corpus/public)") {
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
    TimeRange step{};
    for (const Lane& l : r->lanes)
        for (size_t i = 0; i < l.events.size(); ++i)
            if (l.kind == LaneKind::Nvtx && r->str(l.events.name_id[i]) == "step 3")
                step = {l.events.start_ns[i], l.events.end_ns[i]};
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
                    l.events.kind[i] == EventKind::Kernel && step.contains(l.events.start_ns[i], l.events.end_ns[i]);
    int64_t counted = 0;
    const auto kernelTable = computeStats(*r, "cuda_gpu_kern_sum", step);
    for (const auto& row : kernelTable->rows) counted += std::get<int64_t>(row[2]);
    CHECK(counted == kernels);
    CHECK(kernels > 0);
    CHECK(kernels < 1950);
}
