// The CUDA memory usage events on real reports (--cuda-memory-usage=true), read natively and
// from their exports, against SQL on the export: the changes behind each sample of the
// "CUDA memory usage" counters, and the calls that made them.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/CudaMemory.h"
#include "model/EventDetails.h"
#include "support/ReportSql.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

void checkReport(const std::filesystem::path& input, const std::filesystem::path& exported) {
    INFO(input.filename().string());
    const auto report = importOk(input);
    const Report& r = *report;
    REQUIRE(std::to_string(r.cuda_memory_events.size()) ==
            sqliteRows(exported, "SELECT count(*) FROM CUDA_GPU_MEMORY_USAGE_EVENTS").at(0).at(0));
    REQUIRE(!r.cuda_memory_events.empty());
    // Each sample of a CUDA memory counter is its value after the changes at its time: the
    // changes found at a sample's time add up to the step from the value before that time.
    size_t counters = 0, steps = 0;
    for (const Counter& c : r.counters) {
        if (!isCudaMemoryCounter(r, c)) continue;
        ++counters;
        double before = 0;
        for (size_t i = 0; i < c.time_ns.size(); ++i) {
            if (i + 1 < c.time_ns.size() && c.time_ns[i + 1] == c.time_ns[i]) continue;  // the last at this time
            double change = 0;
            for (uint32_t row : cudaMemoryEventsAt(r, c, c.time_ns[i])) {
                const CudaMemoryEvent& e = r.cuda_memory_events[row];
                CHECK(e.time_ns == c.time_ns[i]);
                change += e.freed ? -double(e.bytes) : double(e.bytes);
            }
            CHECK(std::abs(before + change - c.value[i]) < 0.5);
            before = c.value[i];
            ++steps;
        }
    }
    CHECK(counters >= 1);
    CHECK(steps >= 1);
    // The calls found are those SQL joins through correlationId and the pid, holding the
    // event's time.
    size_t withCall = 0;
    for (const CudaMemoryEvent& e : r.cuda_memory_events) {
        const auto call = cudaMemoryCall(r, e);
        if (!call) continue;
        ++withCall;
        const Lane& lane = r.lanes[call->lane];
        CHECK(lane.process == e.process);
        CHECK(lane.events.payload[call->index] == e.correlation_id);
        CHECK(lane.events.start_ns[call->index] <= e.time_ns);
        CHECK(lane.events.endNs(call->index) >= e.time_ns);
    }
    const std::string joined =
        sqliteRows(exported,
                   "SELECT count(*) FROM CUDA_GPU_MEMORY_USAGE_EVENTS m WHERE m.correlationId > 0 AND EXISTS ("
                   "SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME c WHERE c.correlationId = m.correlationId "
                   "AND (c.globalTid >> 24) & 0xFFFFFF = (m.globalPid >> 24) & 0xFFFFFF "
                   "AND c.start <= m.start AND m.start <= c.end)")
            .at(0)
            .at(0);
    CHECK(std::to_string(withCall) == joined);
}

}  // namespace

TEST_CASE("CUDA memory usage events: the counters' steps and the calls, natively and from the export") {
    for (const char* name : {"unified_memory", "cpu_1gpu", "train_metrics"}) {
        const std::string base = std::string("nsys-2025.3/") + name;
        checkReport(dataFile(base + ".nsys-rep"), dataFile(base + ".sqlite"));
        checkReport(dataFile(base + ".sqlite"), dataFile(base + ".sqlite"));
    }
}

TEST_CASE("CUDA memory usage events: one allocation described") {
    const auto report = importOk(dataFile("nsys-2025.3/unified_memory.nsys-rep"));
    const auto rows = sqliteRows(dataFile("nsys-2025.3/unified_memory.sqlite"),
                                 "SELECT start, bytes, address FROM CUDA_GPU_MEMORY_USAGE_EVENTS "
                                 "WHERE memKind = 4 AND memoryOperationType = 0 ORDER BY start LIMIT 1");
    REQUIRE(rows.size() == 1);
    const int64_t start = std::stoll(rows[0][0]);
    const auto it = std::find_if(report->cuda_memory_events.begin(), report->cuda_memory_events.end(),
                                 [&](const CudaMemoryEvent& e) { return e.time_ns == start && !e.freed; });
    REQUIRE(it != report->cuda_memory_events.end());
    char address[32];
    std::snprintf(address, sizeof address, "0x%llx", std::stoull(rows[0][2]));
    CHECK(describeCudaMemoryEvent(*report, *it) ==
          "Allocation of " + detailBytes(std::stoull(rows[0][1])) + ", Managed, at " + std::string(address));
    const auto call = cudaMemoryCall(*report, *it);
    REQUIRE(call);
    CHECK(report->str(report->lanes[call->lane].events.name_id[call->index]).starts_with("cudaMallocManaged"));
}
