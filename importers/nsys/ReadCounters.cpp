#include <algorithm>
#include <map>
#include <numeric>

#include "importers/nsys/TableScan.h"

namespace lanescope::nsys {
namespace {

// The GPU a sampled metric belongs to: with a single GPU in the report, that one.
int32_t onlyGpu(const Report& report) { return report.gpus.size() == 1 ? 0 : -1; }

std::optional<ImportError> damaged(ImportContext& ctx, const std::string& table, const SqliteStmt& stmt) {
    return ImportError{ImportError::Kind::Corrupt,
                       ctx.file.string() + ": damaged table " + table + ": " + stmt.error()};
}

// GPU_METRICS: one counter per (typeId, metricId), named from TARGET_INFO_GPU_METRICS.
std::optional<ImportError> readGpuMetrics(ImportContext& ctx) {
    if (!ctx.db.hasTable("GPU_METRICS")) return std::nullopt;
    std::map<std::pair<int64_t, int64_t>, size_t> counterOf;
    auto names = selectByName(ctx.db, "TARGET_INFO_GPU_METRICS", {"typeId", "metricId", "metricName"},
                              {"typeId", "metricId", "metricName"});
    std::map<std::pair<int64_t, int64_t>, std::string> metricNames;
    if (names) {
        SqliteStmt stmt(ctx.db, *names);
        while (stmt.step()) metricNames[{stmt.i64(0), stmt.i64(1)}] = std::string(stmt.text(2));
    }
    std::string missing;
    auto sql = selectByName(ctx.db, "GPU_METRICS", {"timestamp", "typeId", "metricId", "value"},
                            {"timestamp", "typeId", "metricId", "value"}, &missing);
    if (!sql) {
        countDiagnostic(ctx.report.diagnostics, Diag::TableLacksColumn, {"GPU_METRICS", missing});
        return std::nullopt;
    }
    SqliteStmt stmt(ctx.db, *sql);
    uint64_t n = 0;
    while (stmt.step()) {
        if (!validTime(ctx.report.diagnostics, stmt.i64(0))) continue;
        const std::pair<int64_t, int64_t> key{stmt.i64(1), stmt.i64(2)};
        auto [it, inserted] = counterOf.try_emplace(key, ctx.report.counters.size());
        if (inserted) {
            Counter c;
            auto name = metricNames.find(key);
            c.name_id = ctx.report.strings.intern(name != metricNames.end() ? name->second
                                                                            : "Metric " + std::to_string(key.second));
            c.unit_id = ctx.report.strings.intern("");
            c.gpu = onlyGpu(ctx.report);
            ctx.report.counters.push_back(std::move(c));
        }
        Counter& c = ctx.report.counters[it->second];
        c.time_ns.push_back(stmt.i64(0));
        c.value.push_back(stmt.real(3));
        if ((++n & 0xFFFF) == 0 && ctx.stop.stop_requested())
            return ImportError{ImportError::Kind::Cancelled, "import cancelled"};
    }
    if (!stmt.ok()) return damaged(ctx, "GPU_METRICS", stmt);
    return std::nullopt;
}

// CUDA_GPU_MEMORY_USAGE_EVENTS: every allocation and free (Report::cuda_memory_events), and the
// allocated bytes per (process, device) over time, the running sum of allocations
// (memoryOperationType 0) minus frees (1).
std::optional<ImportError> readMemoryUsage(ImportContext& ctx) {
    enum { Start, GlobalPid, DeviceId, Bytes, Operation, Context, Address, Pc, MemKindColumn, Name, Correlation };
    auto sql = selectByName(ctx.db, "CUDA_GPU_MEMORY_USAGE_EVENTS",
                            {"start", "globalPid", "deviceId", "bytes", "memoryOperationType", "contextId", "address",
                             "pc", "memKind", "name", "correlationId"},
                            {"start", "globalPid", "deviceId", "bytes", "memoryOperationType"});
    if (!sql) return std::nullopt;
    // The events with their process and device as recorded, resolved once all are read.
    struct Recorded {
        CudaMemoryEvent event;
        int64_t global_pid;
        int64_t device;
    };
    std::vector<Recorded> events;
    // A change of the bytes in use; a double, as a damaged byte count of -2^63 has no negation.
    struct Change {
        int64_t time;
        double delta;
    };
    std::map<std::pair<int64_t, int64_t>, std::vector<Change>> changes;
    SqliteStmt stmt(ctx.db, *sql);
    while (stmt.step()) {
        const int64_t op = stmt.i64(Operation);
        if (op != 0 && op != 1) {
            countDiagnostic(ctx.report.diagnostics, Diag::MemoryUsageUnknownOperation);
            continue;
        }
        if (!validTime(ctx.report.diagnostics, stmt.i64(Start))) continue;
        const double bytes = static_cast<double>(stmt.i64(Bytes));
        changes[{stmt.i64(GlobalPid), stmt.i64(DeviceId)}].push_back({stmt.i64(Start), op == 0 ? bytes : -bytes});
        CudaMemoryEvent e;
        e.time_ns = stmt.i64(Start);
        e.address = static_cast<uint64_t>(stmt.i64(Address));
        e.bytes = static_cast<uint64_t>(stmt.i64(Bytes));
        e.pc = static_cast<uint64_t>(stmt.i64(Pc));
        e.context_id = clampU32(stmt.i64(Context));
        e.correlation_id = clampU32(stmt.i64(Correlation));
        if (!stmt.isNull(Name)) e.name_id = ctx.report.strings.intern(stmt.text(Name));
        e.mem_kind = memKindOf(stmt.isNull(MemKindColumn) ? 7 : stmt.i64(MemKindColumn));
        e.freed = op == 1;
        events.push_back({e, stmt.i64(GlobalPid), stmt.i64(DeviceId)});
    }
    if (!stmt.ok()) return damaged(ctx, "CUDA_GPU_MEMORY_USAGE_EVENTS", stmt);
    for (auto& [key, list] : changes) {
        std::stable_sort(list.begin(), list.end(), [](const Change& a, const Change& b) { return a.time < b.time; });
        Counter c;
        c.name_id = ctx.report.strings.intern("CUDA memory usage");
        c.unit_id = ctx.report.strings.intern("bytes");
        c.process = ctx.builder.processIndex(key.first);
        c.gpu = ctx.builder.gpuIndex(key.second);
        double used = 0;
        for (const Change& ch : list) {
            used += ch.delta;
            c.time_ns.push_back(ch.time);
            c.value.push_back(used);
        }
        ctx.report.counters.push_back(std::move(c));
    }
    std::stable_sort(events.begin(), events.end(),
                     [](const Recorded& a, const Recorded& b) { return a.event.time_ns < b.event.time_ns; });
    ctx.report.cuda_memory_events.reserve(events.size());
    for (Recorded& r : events) {
        r.event.process = ctx.builder.processIndex(r.global_pid);
        r.event.gpu = ctx.builder.gpuIndex(r.device);
        ctx.report.cuda_memory_events.push_back(r.event);
    }
    return std::nullopt;
}

}  // namespace

std::optional<ImportError> readCounters(ImportContext& ctx) {
    if (auto error = readGpuMetrics(ctx)) return error;
    return readMemoryUsage(ctx);
}

}  // namespace lanescope::nsys
