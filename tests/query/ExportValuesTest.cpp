// The values of nsys's export tables that Lanescope's SQL tables give as nsys 2025.3's export of
// the same report writes them: StringIds row for row (ids included, so every string id column
// compares as a number), PROCESSES and ThreadNames in nsys's row order, and columns the model
// keeps for the export (gridId, copyCount, greenContextId, returnValue, DIAGNOSTIC_EVENT's
// globalPid, OSRT_API's eventClass, COMPOSITE_EVENTS' threadState and cpuCycles,
// GPU_METRICS' rawTimestamp, TARGET_INFO_GPU_METRICS' typeName, SCHED_EVENTS' threadState, the
// CPU page faults' module), and the tables of what the capture kept (ProcessStreams,
// ANALYSIS_FILE, META_DATA_CAPTURE, GENERIC_EVENT_*) row for row. Each report is read natively
// and from its export.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "TestPaths.h"
#include "importers/ImportHelpers.h"
#include "query/ReportSql.h"
#include "tests/query/SqlRows.h"

namespace lanescope::test {
namespace {

// The queries: ordered ones fold their rows into one text in scan order (group_concat keeps it).
const std::vector<std::string> kExportValueQueries = {
    "SELECT count(*), group_concat(id || '=' || value, char(10)) FROM StringIds",
    "SELECT group_concat(globalPid || ':' || pid || ':' || name, char(10)) FROM PROCESSES",
    "SELECT group_concat(nameId || ':' || globalTid, char(10)) FROM ThreadNames",
    "SELECT start, correlationId, gridId, greenContextId, demangledName, shortName, mangledName "
    "FROM CUPTI_ACTIVITY_KIND_KERNEL",
    "SELECT start, correlationId, copyCount, greenContextId FROM CUPTI_ACTIVITY_KIND_MEMCPY",
    "SELECT start, correlationId, greenContextId FROM CUPTI_ACTIVITY_KIND_MEMSET",
    "SELECT correlationId, greenContextId FROM CUPTI_ACTIVITY_KIND_CUDA_EVENT",
    "SELECT start, correlationId, greenContextId FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
    "SELECT start, correlationId, nameId FROM CUPTI_ACTIVITY_KIND_RUNTIME",
    "SELECT start, end, eventClass, globalTid, nameId, returnValue, nestingLevel FROM OSRT_API",
    "SELECT start, end, globalTid, nameId, returnValue FROM PROFILER_OVERHEAD",
    "SELECT timestamp, text, globalPid FROM DIAGNOSTIC_EVENT",
    "SELECT start, globalTid, threadState, cpuCycles FROM COMPOSITE_EVENTS",
    "SELECT rawTimestamp, timestamp, metricId FROM GPU_METRICS",
    "SELECT typeId, typeName, metricId FROM TARGET_INFO_GPU_METRICS",
    "SELECT isSchedIn, threadState, count(*) FROM SCHED_EVENTS GROUP BY 1, 2",
    "SELECT start, module, unresolvedFaultPc FROM CUDA_UM_CPU_PAGE_FAULT_EVENTS",
    "SELECT * FROM ProcessStreams",
    "SELECT * FROM ANALYSIS_FILE",
    "SELECT count(*), group_concat(name || '=' || value, char(10)) FROM META_DATA_CAPTURE",
    "SELECT * FROM GENERIC_EVENT_SOURCES",
    "SELECT * FROM GENERIC_EVENT_TYPES",
    "SELECT * FROM GENERIC_EVENT_TYPE_FIELDS",
};

void checkValues(const std::filesystem::path& report, const std::filesystem::path& exported) {
    for (const auto& input : {report, exported}) {
        INFO(input.filename().string());
        const auto model = importOk(input);
        std::string error;
        auto session = sql::ReportSql::open(*model, error);
        INFO(error);
        REQUIRE(session);
        for (const std::string& query : kExportValueQueries) {
            INFO(query);
            const auto expected = exportRows(exported, query);
            if (!expected) continue;  // nsys wrote no such table
            const Rows got = lanescopeRows(*session, query);
            INFO("only in Lanescope's: " << onlyIn(got, *expected)
                                         << "\nonly in the export's: " << onlyIn(*expected, got));
            CHECK(got == *expected);
        }
    }
}

}  // namespace

TEST_CASE("Export tables' values and row order equal nsys 2025.3's export", "[sql][export]") {
    for (const char* name : {"train_1gpu", "cpu_1gpu", "cuda_graphs", "cuda_graphs_nodes", "unified_memory",
                             "train_metrics", "ddp_rank0", "two_gpus_one_process", "occupancy"}) {
        const std::string base = std::string("nsys-2025.3/") + name;
        checkValues(dataFile(base + ".nsys-rep"), dataFile(base + ".sqlite"));
    }
}

}  // namespace lanescope::test
