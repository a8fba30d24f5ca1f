// The GPU-side tables beyond the CUDA activity tables (graphs, CUDA event records, unified
// memory page faults, GPU metrics, Nsight Systems' messages, profiler overhead, the machine's
// GPUs) and the ENUM_
// tables: queries written for an nsys export return the same rows on the report read natively
// as sqlite3 returns on nsys 2025.3's export of it, and the same again on that export read by
// Lanescope. Rows are compared as sorted multisets of their text.
#include <sqlite3.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "Absent.h"
#include "TestPaths.h"
#include "importers/ImportHelpers.h"
#include "query/ReportSql.h"
#include "tests/query/SqlRows.h"

namespace lanescope::test {
namespace {

// A query and the table it is about: where the export lacks that table, Lanescope's must be empty.
struct Check {
    std::string table;
    std::string sql;
};

const char* const kEnumTables[] = {"ENUM_CUDA_DEV_MEM_EVENT_OPER",
                                   "ENUM_CUDA_FUNC_CACHE_CONFIG",
                                   "ENUM_CUDA_KERNEL_LAUNCH_TYPE",
                                   "ENUM_CUDA_MEMCPY_OPER",
                                   "ENUM_CUDA_MEM_KIND",
                                   "ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG",
                                   "ENUM_CUDA_UNIF_MEM_ACCESS_TYPE",
                                   "ENUM_CUDA_UNIF_MEM_MIGRATION",
                                   "ENUM_CUPTI_STREAM_TYPE",
                                   "ENUM_CUPTI_SYNC_TYPE",
                                   "ENUM_DIAGNOSTIC_SEVERITY_LEVEL",
                                   "ENUM_DIAGNOSTIC_SOURCE_TYPE",
                                   "ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE",
                                   "ENUM_NSYS_EVENT_CLASS",
                                   "ENUM_NSYS_EVENT_TYPE",
                                   "ENUM_SAMPLING_THREAD_STATE",
                                   "ENUM_SCHEDULING_THREAD_BLOCK",
                                   "ENUM_STACK_UNWIND_METHOD"};

// The GPU-side queries. Columns the model does not hold (greenContextId, rawTimestamp,
// PROFILER_OVERHEAD.returnValue) are left out; string ids are compared through StringIds.
std::vector<Check> gpuChecks(int64_t metricsBegin, int64_t metricsEnd) {
    const std::string stream = "deviceId, contextId, streamId, globalPid";
    std::vector<Check> checks = {
        // graphs traced as a whole: per graph and stream, and joined to their launches
        {"CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
         "SELECT graphId, graphExecId, " + stream +
             ", count(*), sum(end - start), min(start), max(end), sum(correlationId) "
             "FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE GROUP BY graphId, graphExecId, " +
             stream},
        {"CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
         "SELECT s.value, count(*), sum(g.start - r.start) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE g "
         "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = g.correlationId "
         "AND (r.globalTid >> 24) & 0xFFFFFF = (g.globalPid >> 24) & 0xFFFFFF "
         "JOIN StringIds s ON s.id = r.nameId GROUP BY s.value"},
        // CUDA event records: every row, and per event id joined to their record calls
        {"CUPTI_ACTIVITY_KIND_CUDA_EVENT",
         "SELECT " + stream + ", correlationId, eventId, eventSyncId FROM CUPTI_ACTIVITY_KIND_CUDA_EVENT"},
        {"CUPTI_ACTIVITY_KIND_CUDA_EVENT",
         "SELECT e.eventId, s.value, count(*) FROM CUPTI_ACTIVITY_KIND_CUDA_EVENT e "
         "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = e.correlationId "
         "AND (r.globalTid >> 24) & 0xFFFFFF = (e.globalPid >> 24) & 0xFFFFFF "
         "JOIN StringIds s ON s.id = r.nameId GROUP BY e.eventId, s.value"},
        // the graphs' and nodes' CPU-side events, every row
        {"CUDA_GRAPH_EVENTS",
         "SELECT g.start, g.end, g.eventClass, c.label, g.globalTid, s.value, g.graphId, g.originalGraphId, "
         "g.graphExecId FROM CUDA_GRAPH_EVENTS g JOIN StringIds s ON s.id = g.nameId "
         "JOIN ENUM_NSYS_EVENT_CLASS c ON c.id = g.eventClass"},
        {"CUDA_GRAPH_NODE_EVENTS",
         "SELECT g.start, g.end, g.eventClass, g.globalTid, s.value, g.graphNodeId, g.originalGraphNodeId "
         "FROM CUDA_GRAPH_NODE_EVENTS g JOIN StringIds s ON s.id = g.nameId"},
        // unified memory: GPU page faults by access type, every row; CPU page faults, every row
        {"CUDA_UM_GPU_PAGE_FAULT_EVENTS",
         "SELECT a.label, count(*), sum(f.numberOfPageFaults), sum(f.end - f.start) "
         "FROM CUDA_UM_GPU_PAGE_FAULT_EVENTS f JOIN ENUM_CUDA_UNIF_MEM_ACCESS_TYPE a ON a.id = f.faultAccessType "
         "GROUP BY a.label"},
        {"CUDA_UM_GPU_PAGE_FAULT_EVENTS",
         "SELECT start, end, globalPid, deviceId, address, numberOfPageFaults, faultAccessType "
         "FROM CUDA_UM_GPU_PAGE_FAULT_EVENTS"},
        {"CUDA_UM_CPU_PAGE_FAULT_EVENTS",
         "SELECT c.start, c.globalPid, c.address, c.originalFaultPc, i.value, f.value, c.sourceLine, m.value, "
         "c.unresolvedFaultPc FROM CUDA_UM_CPU_PAGE_FAULT_EVENTS c JOIN StringIds i ON i.id = c.CpuInstruction "
         "LEFT JOIN StringIds f ON f.id = c.sourceFile LEFT JOIN StringIds m ON m.id = c.module"},
        // GPU metrics: the metrics, then the samples per metric name, whole and in a time range
        {"TARGET_INFO_GPU_METRICS", "SELECT typeId, sourceId, metricId, metricName FROM TARGET_INFO_GPU_METRICS"},
        {"GPU_METRICS",
         "SELECT t.metricName, count(*), sum(m.value), min(m.value), max(m.value), min(m.timestamp), "
         "max(m.timestamp) FROM GPU_METRICS m JOIN TARGET_INFO_GPU_METRICS t "
         "ON t.typeId = m.typeId AND t.metricId = m.metricId GROUP BY t.metricName"},
        {"GPU_METRICS",
         "SELECT metricId, count(*), sum(value) FROM GPU_METRICS WHERE timestamp >= " + std::to_string(metricsBegin) +
             " AND timestamp < " + std::to_string(metricsEnd) + " GROUP BY metricId"},
        // Nsight Systems' messages, every row and by their enums' labels
        // (a message of the session, with pid 0 in its globalPid, has NULL in Lanescope's)
        {"DIAGNOSTIC_EVENT",
         "SELECT timestamp, timestampType, source, severity, text, "
         "CASE WHEN (globalPid >> 24) & 0xFFFFFF = 0 THEN NULL ELSE globalPid END FROM DIAGNOSTIC_EVENT"},
        {"DIAGNOSTIC_EVENT",
         "SELECT l.label, s.label, t.label, count(*) FROM DIAGNOSTIC_EVENT d "
         "JOIN ENUM_DIAGNOSTIC_SEVERITY_LEVEL l ON l.id = d.severity "
         "JOIN ENUM_DIAGNOSTIC_SOURCE_TYPE s ON s.id = d.source "
         "JOIN ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE t ON t.id = d.timestampType GROUP BY 1, 2, 3"},
        // every synchronization, with its type, eventId and eventSyncId as nsys 2025.3 writes them: a report
        // recorded before 2025 has its types in deprecatedSyncType (syncType 0) and NULL eventSyncIds,
        // a 2025 one 4294967295 for none
        {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
         "SELECT start, end, deviceId, contextId, streamId, correlationId, globalPid, syncType, deprecatedSyncType, "
         "eventSyncId, eventId FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"},
        // CUDA memory usage: every allocation and free, and per memory kind and operation's label
        {"CUDA_GPU_MEMORY_USAGE_EVENTS",
         "SELECT start, globalPid, deviceId, contextId, address, pc, bytes, memKind, memoryOperationType, name, "
         "correlationId, streamId FROM CUDA_GPU_MEMORY_USAGE_EVENTS"},
        {"CUDA_GPU_MEMORY_USAGE_EVENTS",
         "SELECT k.label, o.label, count(*), sum(m.bytes), max(m.bytes) FROM CUDA_GPU_MEMORY_USAGE_EVENTS m "
         "JOIN ENUM_CUDA_MEM_KIND k ON k.id = m.memKind "
         "JOIN ENUM_CUDA_DEV_MEM_EVENT_OPER o ON o.id = m.memoryOperationType GROUP BY 1, 2"},
        // allocations joined to the CUDA API calls that made them
        {"CUDA_GPU_MEMORY_USAGE_EVENTS",
         "SELECT s.value, count(*), sum(m.bytes) FROM CUDA_GPU_MEMORY_USAGE_EVENTS m "
         "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = m.correlationId "
         "AND (r.globalTid >> 24) & 0xFFFFFF = (m.globalPid >> 24) & 0xFFFFFF "
         "JOIN StringIds s ON s.id = r.nameId GROUP BY s.value"},
        // the shared memory each kernel ran with (the SM's configuration for it)
        {"CUPTI_ACTIVITY_KIND_KERNEL",
         "SELECT sharedMemoryExecuted, blockX, registersPerThread, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL "
         "GROUP BY 1, 2, 3"},
        // what nsys records of each kernel's function and context: every kernel, its mangled name
        // (NULL in a 2020 report), cache and shared memory configurations and local memory
        {"CUPTI_ACTIVITY_KIND_KERNEL",
         "SELECT k.start, k.correlationId, m.value, k.cacheConfig, k.sharedMemoryLimitConfig, k.localMemoryTotal "
         "FROM CUPTI_ACTIVITY_KIND_KERNEL k LEFT JOIN StringIds m ON m.id = k.mangledName"},
        {"CUPTI_ACTIVITY_KIND_KERNEL",
         "SELECT m.value, count(*), sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
         "LEFT JOIN StringIds m ON m.id = k.mangledName GROUP BY m.value"},
        {"CUPTI_ACTIVITY_KIND_KERNEL",
         "SELECT c.label, l.label, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
         "JOIN ENUM_CUDA_FUNC_CACHE_CONFIG c ON c.id = k.cacheConfig "
         "JOIN ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG l ON l.id = k.sharedMemoryLimitConfig GROUP BY 1, 2"},
        // the CUDA devices, contexts and streams of the recorded processes, every row
        {"TARGET_INFO_CUDA_DEVICE", "SELECT * FROM TARGET_INFO_CUDA_DEVICE"},
        {"TARGET_INFO_CUDA_CONTEXT_INFO", "SELECT * FROM TARGET_INFO_CUDA_CONTEXT_INFO"},
        {"TARGET_INFO_CUDA_STREAM", "SELECT * FROM TARGET_INFO_CUDA_STREAM"},
        {"TARGET_INFO_CUDA_STREAM",
         "SELECT s.priority, count(*), count(k.start) FROM TARGET_INFO_CUDA_STREAM s LEFT JOIN "
         "CUPTI_ACTIVITY_KIND_KERNEL k ON k.streamId = s.streamId AND k.contextId = s.contextId "
         "AND (k.globalPid >> 24) & 0xFFFFFF = s.processId GROUP BY s.priority"},
        // when the session ran: on the profiler's clock, in UTC and in the machine's local time
        {"ANALYSIS_DETAILS", "SELECT * FROM ANALYSIS_DETAILS"},
        {"TARGET_INFO_SESSION_START_TIME", "SELECT * FROM TARGET_INFO_SESSION_START_TIME"},
        // the recording machine's properties, named; but those a .nsys-rep records as messages, which
        // the native reader leaves out and the export writes as JSON
        {"TARGET_INFO_SYSTEM_ENV",
         "SELECT globalVid, devStateName, name, nameEnum, value FROM TARGET_INFO_SYSTEM_ENV "
         "WHERE nameEnum NOT IN (891, 894, 895, 897, 905, 910, 912)"},
        // every GPU of the machine, used or not, with all of its properties, in the export's columns
        {"TARGET_INFO_GPU", "SELECT * FROM TARGET_INFO_GPU"},
        // profiler overhead, in total and every row
        {"PROFILER_OVERHEAD", "SELECT count(*), sum(end - start) FROM PROFILER_OVERHEAD"},
        {"PROFILER_OVERHEAD",
         "SELECT o.start, o.end, o.globalTid, s.value FROM PROFILER_OVERHEAD o JOIN StringIds s ON s.id = o.nameId"},
    };
    for (const char* table : kEnumTables)
        checks.push_back({table, std::string("SELECT id, name, label FROM ") + table});
    return checks;
}

// The enum columns of the CUDA activity and CPU tables joined to their ENUM_ tables, for the
// reports with CUDA (an older report's syncs have syncType 0, their type in deprecatedSyncType, in
// Lanescope's tables as in nsys 2025.3's export of it). Not on the 2022.4 report without CUDA:
// the OS runtime start/stop rows there do not alternate from a start (docs/sql.md, OSRT_API).
std::vector<Check> enumJoinChecks() {
    return {
        {"CUPTI_ACTIVITY_KIND_MEMCPY",
         "SELECT o.label, s.label, d.label, count(*), sum(m.bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY m "
         "JOIN ENUM_CUDA_MEMCPY_OPER o ON o.id = m.copyKind JOIN ENUM_CUDA_MEM_KIND s ON s.id = m.srcKind "
         "JOIN ENUM_CUDA_MEM_KIND d ON d.id = m.dstKind GROUP BY 1, 2, 3"},
        {"CUPTI_ACTIVITY_KIND_MEMCPY",
         "SELECT srcDeviceId, srcContextId, dstDeviceId, dstContextId, count(*), sum(bytes) "
         "FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY 1, 2, 3, 4"},
        {"CUPTI_ACTIVITY_KIND_MEMCPY",
         "SELECT c.label, count(*), sum(m.bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY m "
         "JOIN ENUM_CUDA_UNIF_MEM_MIGRATION c ON c.id = m.migrationCause GROUP BY c.label"},
        {"CUPTI_ACTIVITY_KIND_MEMSET",
         "SELECT k.label, count(*), sum(m.bytes) FROM CUPTI_ACTIVITY_KIND_MEMSET m "
         "JOIN ENUM_CUDA_MEM_KIND k ON k.id = m.memKind GROUP BY k.label"},
        {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
         "SELECT t.label, count(*), sum(y.end - y.start) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION y "
         "JOIN ENUM_CUPTI_SYNC_TYPE t ON t.id = y.syncType GROUP BY t.label"},
        // The device nsys wrote (0 whatever GPU the context ran on), not the GPU the row is shown on.
        {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
         "SELECT deviceId, contextId, streamId, globalPid, count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION "
         "GROUP BY 1, 2, 3, 4"},
        {"CUPTI_ACTIVITY_KIND_KERNEL",
         "SELECT t.label, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
         "JOIN ENUM_CUDA_KERNEL_LAUNCH_TYPE t ON t.id = k.launchType GROUP BY t.label"},
        {"OSRT_API",
         "SELECT c.name, c.label, count(*) FROM OSRT_API o JOIN ENUM_NSYS_EVENT_CLASS c ON c.id = o.eventClass "
         "GROUP BY 1, 2"},
        {"NVTX_EVENTS",
         "SELECT t.name, count(*) FROM NVTX_EVENTS n JOIN ENUM_NSYS_EVENT_TYPE t ON t.id = n.eventType "
         "WHERE n.eventType IN (34, 59, 60) GROUP BY t.name"},
    };
}

// Runs every check on the report and on its export, each read by Lanescope, against sqlite3 on
// the export.
void checkPair(const std::filesystem::path& report, const std::filesystem::path& exported,
               const std::vector<Check>& more = {}) {
    INFO(report.filename().string());
    // The range: the middle third of the GPU metrics' span, from the export.
    const int64_t first = sqliteInt(exported, "SELECT coalesce(min(timestamp), 0) FROM GPU_METRICS");
    const int64_t last = sqliteInt(exported, "SELECT coalesce(max(timestamp), 0) FROM GPU_METRICS");
    auto checks = gpuChecks(first + (last - first) / 3, first + 2 * (last - first) / 3);
    checks.insert(checks.end(), more.begin(), more.end());
    for (const auto& input : {report, exported}) {
        const auto model = importOk(input);
        std::string error;
        auto session = sql::ReportSql::open(*model, error);
        INFO(error);
        REQUIRE(session);
        for (const Check& check : checks) {
            INFO("on " << input.filename().string() << ": " << check.sql);
            const auto expectedRows = exportRows(exported, check.sql);
            if (!expectedRows) {  // the export has no such table: Lanescope's is empty (an ENUM_ table is full)
                if (check.table.rfind("ENUM_", 0) != 0)
                    CHECK(lanescopeRows(*session, "SELECT count(*) FROM " + check.table) == Rows{"0|"});
                continue;
            }
            const Rows& expected = *expectedRows;
            const Rows got = lanescopeRows(*session, check.sql);
            INFO("only in Lanescope's: " << onlyIn(got, expected)
                                         << "\nonly in the export's: " << onlyIn(expected, got));
            CHECK(got == expected);
        }
    }
}

}  // namespace

TEST_CASE("GPU-side tables give the export's rows on every 2025.3 report", "[sql][gpu]") {
    for (const char* name : {"cuda_graphs", "cuda_graphs_nodes", "unified_memory", "train_metrics", "train_1gpu",
                             "cpu_1gpu", "ddp_rank0", "ddp_rank1", "torch_compile", "torch_compile_graphs",
                             "ddp_both_ranks", "two_gpus_one_process", "occupancy"}) {
        const std::string base = std::string("nsys-2025.3/") + name;
        checkPair(dataFile(base + ".nsys-rep"), dataFile(base + ".sqlite"), enumJoinChecks());
    }
}

TEST_CASE("GPU-side tables give the 2025.3 export's rows on a 2022.4 report", "[sql][gpu]") {
    const auto exported = sharedFile("nsys-2025.3-exports/cpu_nvtx_threads.sqlite");
    if (exported.empty()) LANESCOPE_SKIP_ABSENT("../shared/corpus/nsys-2025.3-exports/cpu_nvtx_threads.sqlite");
    checkPair(dataFile("nsys-2022.4/cpu_nvtx_threads.nsys-rep"), exported);
}

TEST_CASE("GPU-side tables on public reports of 2020 to 2024", "[sql][gpu]") {
    const auto baseline = sharedFile("public/openhackathons-org__AI-Profiler__baseline_nvtx.nsys-rep");
    if (baseline.empty()) LANESCOPE_SKIP_ABSENT("../shared/corpus/public");
    const auto dir = tempDir("lanescope-sql-gpu");
    checkPair(
        baseline,
        inflatedXz(sharedFile("nsys-2025.3-exports/openhackathons-org__AI-Profiler__baseline_nvtx.sqlite.xz"), dir),
        enumJoinChecks());
    for (const char* n : {"3", "4", "6"}) {
        const std::string name = std::string("openhackathons-org__gpubootcamp__report") + n;
        const auto report = sharedFile("public/mpi-jacobi/" + name + ".qdrep");
        const auto exported = inflatedXz(sharedFile("nsys-2025.3-exports/" + name + ".sqlite.xz"), dir);
        checkPair(report, exported, enumJoinChecks());
        // The export keeps the 2020 recording's sync types in deprecatedSyncType: read from it, the
        // syncs are named by their type (event sync, stream wait) as read from the report, not
        // "Unknown sync".
        const std::string q = "SELECT name, count(*) FROM slices WHERE kind = 'Sync' GROUP BY name";
        std::vector<Rows> named;
        for (const auto& input : {report, exported}) {
            const auto model = importOk(input);
            std::string error;
            auto session = sql::ReportSql::open(*model, error);
            REQUIRE(session);
            named.push_back(lanescopeRows(*session, q));
        }
        INFO(name);
        CHECK(named[1] == named[0]);
        CHECK(std::none_of(named[0].begin(), named[0].end(),
                           [](const std::string& row) { return row.starts_with("Unknown sync"); }));
        CHECK(named[0].size() >= 2);
    }
    std::filesystem::remove_all(dir);
}

}  // namespace lanescope::test
