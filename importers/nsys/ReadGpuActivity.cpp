#include <algorithm>

#include "importers/nsys/TableScan.h"

namespace lanescope::nsys {
namespace {

// Columns every CUPTI activity table shares, first in each SELECT.
const std::vector<std::string> kCommon = {"start",     "end",           "deviceId", "streamId",
                                          "globalPid", "correlationId", "contextId"};
enum Common { Start, End, Device, Stream, Pid, Correlation, Context, First };

std::vector<std::string> with(std::vector<std::string> extra) {
    std::vector<std::string> all = kCommon;
    all.insert(all.end(), extra.begin(), extra.end());
    return all;
}

LaneKey streamLane(const SqliteStmt& row, LaneKind kind = LaneKind::GpuStream) {
    return {kind, row.i64(Pid), row.i64(Device), row.isNull(Stream) ? -1 : row.i64(Stream),
            row.isNull(Context) ? -1 : row.i64(Context)};
}

std::optional<ImportError> readKernels(ImportContext& ctx) {
    enum {
        Demangled = First,
        Short,
        GridX,
        GridY,
        GridZ,
        BlockX,
        BlockY,
        BlockZ,
        Regs,
        StaticSmem,
        DynSmem,
        LocalMem,
        LaunchType,
        GraphNode,
        SharedExecuted,
        Mangled,
        LocalTotal,
        CacheConfig,
        SharedLimit,
        GridId
    };
    const ReportBuilder& b = ctx.builder;
    return scanEventTable(
        ctx, "CUPTI_ACTIVITY_KIND_KERNEL",
        with({"demangledName",
              "shortName",
              "gridX",
              "gridY",
              "gridZ",
              "blockX",
              "blockY",
              "blockZ",
              "registersPerThread",
              "staticSharedMemory",
              "dynamicSharedMemory",
              "localMemoryPerThread",
              "launchType",
              "graphNodeId",
              "sharedMemoryExecuted",
              "mangledName",
              "localMemoryTotal",
              "cacheConfig",
              "sharedMemoryLimitConfig",
              "gridId"}),
        {"start", "end", "deviceId", "streamId"}, [&](const SqliteStmt& row, EventChunk& chunk) {
            if (!validInterval(chunk, row, Start, End, Diag::KernelWithoutEnd)) return;
            KernelConfig k;
            for (int i = 0; i < 3; ++i) {
                k.grid[i] = clampU32(row.i64(GridX + i));
                k.block[i] = static_cast<uint16_t>(std::clamp<int64_t>(row.i64(BlockX + i), 0, 65535));
            }
            k.registers_per_thread = static_cast<uint16_t>(std::clamp<int64_t>(row.i64(Regs), 0, 65535));
            k.static_shared_bytes = clampU32(row.i64(StaticSmem));
            k.dynamic_shared_bytes = clampU32(row.i64(DynSmem));
            k.local_bytes_per_thread = clampU32(row.i64(LocalMem));
            k.launch_type = static_cast<uint8_t>(std::clamp<int64_t>(row.i64(LaunchType), 0, 255));
            if (!row.isNull(SharedExecuted)) k.shared_executed_bytes = clampU32(row.i64(SharedExecuted));
            k.short_name_id = row.isNull(Short) ? 0 : nameOf(b, chunk, row.i64(Short));
            // (One call a column: the type is asked for only when a value reads as 0.)
            if (const auto mangled = row.i64OrNull(Mangled)) k.mangled_name_id = nameOf(b, chunk, *mangled);
            if (const auto total = row.i64OrNull(LocalTotal))
                k.local_memory_total = static_cast<uint64_t>(std::max<int64_t>(0, *total));
            if (const auto cache = row.i64OrNull(CacheConfig))
                k.cache_config = static_cast<uint8_t>(std::clamp<int64_t>(*cache, 0, 254));
            if (const auto limit = row.i64OrNull(SharedLimit))
                k.shared_memory_limit_config = static_cast<uint8_t>(std::clamp<int64_t>(*limit, 0, 254));
            const uint32_t name = !row.isNull(Demangled) ? nameOf(b, chunk, row.i64(Demangled)) : k.short_name_id;
            chunk.kernels.push_back(
                {chunk.kernelConfigRow(k), clampU32(row.i64(Correlation)), row.i64OrNull(GridId).value_or(kNoGridId)});
            if (!row.isNull(GraphNode))
                chunk.kernelGraphNodes.push_back(
                    {uint32_t(chunk.kernels.size() - 1), static_cast<uint64_t>(row.i64(GraphNode))});
            pushInterval(chunk, streamLane(row), row.i64(Start), row.i64(End), name, EventKind::Kernel,
                         static_cast<uint32_t>(chunk.kernels.size() - 1));
        });
}

std::optional<ImportError> readMemcpy(ImportContext& ctx) {
    enum {
        Bytes = First,
        CopyKindCol,
        SrcKind,
        DstKind,
        Cause,
        Address,
        CopyCount,
        SrcDevice,
        SrcContext,
        DstDevice,
        DstContext
    };
    return scanEventTable(
        ctx, "CUPTI_ACTIVITY_KIND_MEMCPY",
        with({"bytes", "copyKind", "srcKind", "dstKind", "migrationCause", "virtualAddress", "copyCount", "srcDeviceId",
              "srcContextId", "dstDeviceId", "dstContextId"}),
        {"start", "end", "deviceId", "streamId", "copyKind"}, [&](const SqliteStmt& row, EventChunk& chunk) {
            if (!validInterval(chunk, row, Start, End, Diag::MemcpyWithoutEnd)) return;
            MemcpyInfo m;
            m.bytes = static_cast<uint64_t>(std::max<int64_t>(0, row.i64(Bytes)));
            const int64_t copyKind = row.i64(CopyKindCol);
            if (copyKind < 0 || copyKind > static_cast<int64_t>(CopyKind::UvmDtoD))
                countDiagnostic(chunk.diagnostics, Diag::MemcpyUnknownCopyKind);
            m.copy_kind = static_cast<CopyKind>(copyKind >= 0 && copyKind <= 13 ? copyKind : 0);
            m.src_kind = memKindOf(row.isNull(SrcKind) ? 7 : row.i64(SrcKind));
            m.dst_kind = memKindOf(row.isNull(DstKind) ? 7 : row.i64(DstKind));
            m.correlation_id = clampU32(row.i64(Correlation));
            m.copy_count = clampU32(row.i64OrNull(CopyCount).value_or(0));
            chunk.memcpys.push_back(m);
            if (!row.isNull(SrcDevice) || !row.isNull(DstDevice))
                chunk.peerCopies.push_back({uint32_t(chunk.memcpys.size() - 1), clampU32(row.i64(SrcDevice)),
                                            clampU32(row.i64(SrcContext)), clampU32(row.i64(DstDevice)),
                                            clampU32(row.i64(DstContext))});
            if (!row.isNull(Address) || !row.isNull(Cause))
                chunk.migrations.push_back(
                    {uint32_t(chunk.memcpys.size() - 1),
                     uint8_t(std::clamp<int64_t>(row.isNull(Cause) ? 0 : row.i64(Cause), 0, 255)),
                     static_cast<uint64_t>(row.isNull(Address) ? 0 : row.i64(Address))});
            const uint32_t name = chunk.localString(std::string("[CUDA memcpy ") + copyKindLabel(m.copy_kind) + "]");
            pushInterval(chunk, streamLane(row), row.i64(Start), row.i64(End), name, EventKind::Memcpy,
                         static_cast<uint32_t>(chunk.memcpys.size() - 1));
        });
}

std::optional<ImportError> readMemset(ImportContext& ctx) {
    enum { Bytes = First, Value, MemKindCol };
    return scanEventTable(ctx, "CUPTI_ACTIVITY_KIND_MEMSET", with({"bytes", "value", "memKind"}),
                          {"start", "end", "deviceId", "streamId"}, [&](const SqliteStmt& row, EventChunk& chunk) {
                              if (!validInterval(chunk, row, Start, End, Diag::MemsetWithoutEnd)) return;
                              MemsetInfo m;
                              m.bytes = static_cast<uint64_t>(std::max<int64_t>(0, row.i64(Bytes)));
                              m.value = static_cast<uint32_t>(row.i64(Value));
                              const int64_t kind = row.isNull(MemKindCol) ? 7 : row.i64(MemKindCol);
                              m.mem_kind = memKindOf(kind);
                              m.correlation_id = clampU32(row.i64(Correlation));
                              chunk.memsets.push_back(m);
                              pushInterval(chunk, streamLane(row), row.i64(Start), row.i64(End),
                                           chunk.localString("[CUDA memset]"), EventKind::Memset,
                                           static_cast<uint32_t>(chunk.memsets.size() - 1));
                          });
}

std::optional<ImportError> readSync(ImportContext& ctx) {
    enum { SyncType = First, DeprecatedSyncType, EventSync, EventId };
    static const char* const labels[] = {"Unknown sync", "Event sync", "Stream wait sync", "Stream sync",
                                         "Context sync"};
    return scanEventTable(
        ctx, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", with({"syncType", "deprecatedSyncType", "eventSyncId", "eventId"}),
        {"start", "end", "deviceId"}, [&](const SqliteStmt& row, EventChunk& chunk) {
            if (!validInterval(chunk, row, Start, End, Diag::SyncWithoutEnd)) return;
            // An export of a report recorded before 2025 has the type in
            // deprecatedSyncType, and 0 in syncType.
            SyncInfo s;
            s.deprecated_type = (row.isNull(SyncType) || row.i64(SyncType) == 0) && !row.isNull(DeprecatedSyncType);
            const int64_t type = row.i64(s.deprecated_type ? DeprecatedSyncType : SyncType);
            s.sync_type = static_cast<uint8_t>(type >= 0 && type <= 4 ? type : 0);
            s.correlation_id = clampU32(row.i64(Correlation));
            if (!row.isNull(EventSync)) s.event_sync_id = clampU32(row.i64(EventSync));
            if (!row.isNull(EventId)) s.event_id = clampU32(row.i64(EventId));
            chunk.syncs.push_back(s);
            pushInterval(chunk, streamLane(row, LaneKind::CudaSync), row.i64(Start), row.i64(End),
                         chunk.localString(labels[s.sync_type]), EventKind::Sync,
                         static_cast<uint32_t>(chunk.syncs.size() - 1));
        });
}

// Graph launches traced as a whole (--cuda-graph-trace=graph): one box on their stream each.
std::optional<ImportError> readGraphExecutions(ImportContext& ctx) {
    enum { GraphId = First, GraphExecId };
    return scanEventTable(ctx, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE", with({"graphId", "graphExecId"}),
                          {"start", "end", "deviceId", "streamId"}, [&](const SqliteStmt& row, EventChunk& chunk) {
                              if (!validInterval(chunk, row, Start, End, Diag::GraphExecutionWithoutEnd)) return;
                              const GraphExecutionInfo g{clampU32(row.i64(Correlation)), clampU32(row.i64(GraphId)),
                                                         clampU32(row.i64(GraphExecId))};
                              chunk.graphExecutions.push_back(g);
                              pushInterval(chunk, streamLane(row), row.i64(Start), row.i64(End),
                                           chunk.localString(graphExecutionName(g)), EventKind::GraphExecution,
                                           static_cast<uint32_t>(chunk.graphExecutions.size() - 1));
                          });
}

// CUDA event records: no time of their own; ReportBuilder::complete places them.
std::optional<ImportError> readCudaEvents(ImportContext& ctx) {
    enum { Device, Stream, Pid, Correlation, Context, EventId, EventSyncId };
    return scanEventTable(
        ctx, "CUPTI_ACTIVITY_KIND_CUDA_EVENT",
        {"deviceId", "streamId", "globalPid", "correlationId", "contextId", "eventId", "eventSyncId"},
        {"deviceId", "streamId", "globalPid", "correlationId"}, [&](const SqliteStmt& row, EventChunk& chunk) {
            const LaneKey stream{LaneKind::GpuStream, row.i64(Pid), row.i64(Device), row.i64(Stream),
                                 row.isNull(Context) ? -1 : row.i64(Context)};
            chunk.cudaEvents.push_back({stream,
                                        {clampU32(row.i64(Correlation)), clampU32(row.i64(EventId)),
                                         row.isNull(EventSyncId) ? kNoEventSync : clampU32(row.i64(EventSyncId))}});
        });
}

}  // namespace

std::string graphExecutionName(const GraphExecutionInfo& graph) {
    return "CUDA graph " + std::to_string(graph.graph_id) + " \u00B7 exec " + std::to_string(graph.graph_exec_id);
}

std::optional<ImportError> readGpuActivity(ImportContext& ctx) {
    for (auto reader : {readKernels, readMemcpy, readMemset, readSync, readGraphExecutions, readCudaEvents})
        if (auto error = reader(ctx)) return error;
    return std::nullopt;
}

}  // namespace lanescope::nsys
