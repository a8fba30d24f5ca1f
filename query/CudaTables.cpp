#include "query/CudaTables.h"

#include <algorithm>

#include "query/BacktraceChains.h"
#include "query/FileOrderRows.h"
#include "query/GpuLaneValues.h"
#include "query/LaneEventTable.h"
#include "query/SqlValues.h"

namespace lanescope::sql {
namespace {

constexpr auto I = ColumnType::Integer;

// The columns every GPU activity table starts with, in nsys's order.
enum GpuColumn { Start, End, DeviceId, ContextId, GreenContextId, StreamId, CorrelationId, GlobalPid, kGpuColumns };
std::vector<ColumnDef> gpuColumns(std::vector<ColumnDef> more) {
    std::vector<ColumnDef> all{{"start", I},          {"end", I},      {"deviceId", I},      {"contextId", I},
                               {"greenContextId", I}, {"streamId", I}, {"correlationId", I}, {"globalPid", I}};
    all.insert(all.end(), more.begin(), more.end());
    return all;
}
bool isStreamLane(const Lane& lane) { return lane.kind == LaneKind::GpuStream; }
bool isSyncLane(const Lane& lane) { return lane.kind == LaneKind::CudaSync; }

// A table of one kind of GPU activity on stream lanes: the shared columns here, the kind's own
// in activityValue. The device, context, stream and process are the lane's (segment columns);
// correlationId is the key.
class GpuActivityTable : public LaneEventTable {
public:
    GpuActivityTable(const Report& report, std::string name, std::vector<ColumnDef> more,
                     std::function<bool(const Lane&)> picks, EventKind kind)
        : LaneEventTable(report, std::move(name), gpuColumns(std::move(more)), std::move(picks),
                         LaneEvents::Part::Intervals, kind) {}

    bool isSegmentColumn(int column) const override { return kLaneColumns.fieldOf(column).has_value(); }
    std::optional<int64_t> segmentValue(size_t segment, int column) const override {
        return laneValue(rows_.lane(segment), column);
    }
    int keyColumn() const override { return CorrelationId; }
    std::optional<int64_t> keyOf(size_t segment, uint32_t row) const override {
        return correlationOf(rows_.event(segment, row), rows_.lane(segment));
    }

protected:
    virtual int64_t correlationOf(uint32_t event, const Lane& lane) const = 0;
    // Whether the record has a greenContextId (GpuLaneValues.h greenContextIdOf).
    virtual bool recordsGreenContext(const Lane&, uint32_t) const { return true; }
    virtual void activityValue(const Lane& lane, uint32_t event, int column, sqlite3_context* ctx) const = 0;

    void eventValue(const Lane& lane, uint32_t event, int column, sqlite3_context* ctx) const override {
        switch (column) {
            case Start:
                return resultInt(ctx, lane.events.start_ns[event]);
            case End:
                return resultInt(ctx, lane.events.endNs(event));
            case GreenContextId:
                if (!recordsGreenContext(lane, event)) return resultNull(ctx);
                return resultInt(ctx, greenContextIdOf(report_, lane));
            case CorrelationId:
                return resultInt(ctx, correlationOf(event, lane));
            case DeviceId:
            case ContextId:
            case StreamId:
            case GlobalPid:
                return resultInt(ctx, laneValue(lane, column));
            default:
                return activityValue(lane, event, column, ctx);
        }
    }

private:
    static constexpr GpuLaneColumns kLaneColumns{DeviceId, ContextId, StreamId, GlobalPid};
    std::optional<int64_t> laneValue(const Lane& lane, int column) const {
        const auto field = kLaneColumns.fieldOf(column);
        return field ? gpuLaneValue(report_, lane, *field) : std::nullopt;
    }
};

class KernelTable : public GpuActivityTable {
public:
    enum Column {
        DemangledName = kGpuColumns,
        ShortName,
        MangledName,
        LaunchType,
        CacheConfig,
        RegistersPerThread,
        GridX,
        GridY,
        GridZ,
        BlockX,
        BlockY,
        BlockZ,
        StaticSharedMemory,
        DynamicSharedMemory,
        LocalMemoryPerThread,
        LocalMemoryTotal,
        GridId,
        SharedMemoryExecuted,
        GraphNodeId,
        SharedMemoryLimitConfig
    };
    explicit KernelTable(const Report& report)
        : GpuActivityTable(report, "CUPTI_ACTIVITY_KIND_KERNEL",
                           {{"demangledName", I},
                            {"shortName", I},
                            {"mangledName", I},
                            {"launchType", I},
                            {"cacheConfig", I},
                            {"registersPerThread", I},
                            {"gridX", I},
                            {"gridY", I},
                            {"gridZ", I},
                            {"blockX", I},
                            {"blockY", I},
                            {"blockZ", I},
                            {"staticSharedMemory", I},
                            {"dynamicSharedMemory", I},
                            {"localMemoryPerThread", I},
                            {"localMemoryTotal", I},
                            {"gridId", I},
                            {"sharedMemoryExecuted", I},
                            {"graphNodeId", I},
                            {"sharedMemoryLimitConfig", I}},
                           isStreamLane, EventKind::Kernel) {}

protected:
    int64_t correlationOf(uint32_t event, const Lane& lane) const override {
        return report_.kernels[lane.events.payload[event]].correlation_id;
    }
    void activityValue(const Lane& lane, uint32_t event, int column, sqlite3_context* ctx) const override {
        const uint32_t row = lane.events.payload[event];
        const KernelConfig& k = report_.kernel_configs[report_.kernels[row].config];
        switch (column) {
            case DemangledName:
                return resultStringId(ctx, report_, lane.events.name_id[event]);
            case ShortName:
                return resultStringId(ctx, report_, k.short_name_id);
            case LaunchType:
                return resultInt(ctx, k.launch_type);
            case RegistersPerThread:
                return resultInt(ctx, k.registers_per_thread);
            case GridX:
                return resultInt(ctx, k.grid[0]);
            case GridY:
                return resultInt(ctx, k.grid[1]);
            case GridZ:
                return resultInt(ctx, k.grid[2]);
            case BlockX:
                return resultInt(ctx, k.block[0]);
            case BlockY:
                return resultInt(ctx, k.block[1]);
            case BlockZ:
                return resultInt(ctx, k.block[2]);
            case StaticSharedMemory:
                return resultInt(ctx, k.static_shared_bytes);
            case DynamicSharedMemory:
                return resultInt(ctx, k.dynamic_shared_bytes);
            case LocalMemoryPerThread:
                return resultInt(ctx, k.local_bytes_per_thread);
            case SharedMemoryExecuted:
                if (k.shared_executed_bytes == kNoSharedExecuted) return resultNull(ctx);
                return resultInt(ctx, k.shared_executed_bytes);
            case GraphNodeId:
                return resultInt(ctx, graphNodeOf(row));
            case MangledName:
                if (k.mangled_name_id == KernelConfig::kNoMangledName) return resultNull(ctx);
                return resultStringId(ctx, report_, k.mangled_name_id);
            case LocalMemoryTotal:
                if (k.local_memory_total == KernelConfig::kNoLocalMemoryTotal) return resultNull(ctx);
                return resultInt(ctx, static_cast<int64_t>(k.local_memory_total));
            case CacheConfig:
                if (k.cache_config == KernelConfig::kNoCacheConfig) return resultNull(ctx);
                return resultInt(ctx, k.cache_config);
            case SharedMemoryLimitConfig:
                if (k.shared_memory_limit_config == KernelConfig::kNoCacheConfig) return resultNull(ctx);
                return resultInt(ctx, k.shared_memory_limit_config);
            case GridId: {
                const int64_t grid = report_.kernels[row].grid_id;
                return grid == kNoGridId ? resultNull(ctx) : resultInt(ctx, grid);
            }
            default:
                return resultNull(ctx);
        }
    }

private:
    std::optional<int64_t> graphNodeOf(uint32_t kernel) const {
        const auto& nodes = report_.kernel_graph_nodes;
        const auto it = std::lower_bound(nodes.begin(), nodes.end(), kernel,
                                         [](const KernelGraphNode& n, uint32_t k) { return n.kernel < k; });
        if (it == nodes.end() || it->kernel != kernel) return std::nullopt;
        return int64_t(it->graph_node_id);
    }
};

class MemcpyTable : public GpuActivityTable {
public:
    enum Column {
        Bytes = kGpuColumns,
        CopyKindColumn,
        DeprecatedSrcId,
        SrcKind,
        DstKind,
        SrcDeviceId,
        SrcContextId,
        DstDeviceId,
        DstContextId,
        MigrationCause,
        GraphNodeId,
        VirtualAddress,
        CopyCount
    };
    explicit MemcpyTable(const Report& report)
        : GpuActivityTable(report, "CUPTI_ACTIVITY_KIND_MEMCPY",
                           {{"bytes", I},
                            {"copyKind", I},
                            {"deprecatedSrcId", I},
                            {"srcKind", I},
                            {"dstKind", I},
                            {"srcDeviceId", I},
                            {"srcContextId", I},
                            {"dstDeviceId", I},
                            {"dstContextId", I},
                            {"migrationCause", I},
                            {"graphNodeId", I},
                            {"virtualAddress", I},
                            {"copyCount", I}},
                           isStreamLane, EventKind::Memcpy) {}

protected:
    int64_t correlationOf(uint32_t event, const Lane& lane) const override {
        return report_.memcpys[lane.events.payload[event]].correlation_id;
    }
    // A unified-memory migration records none.
    bool recordsGreenContext(const Lane& lane, uint32_t event) const override {
        return migrationOf(lane.events.payload[event]) == nullptr;
    }
    void activityValue(const Lane& lane, uint32_t event, int column, sqlite3_context* ctx) const override {
        const uint32_t row = lane.events.payload[event];
        const MemcpyInfo& m = report_.memcpys[row];
        switch (column) {
            case Bytes:
                return resultInt(ctx, int64_t(m.bytes));
            case CopyKindColumn:
                return resultInt(ctx, int64_t(m.copy_kind));
            case SrcKind:
                return resultInt(ctx, int64_t(m.src_kind));
            case DstKind:
                return resultInt(ctx, int64_t(m.dst_kind));
            case MigrationCause:
                if (const Migration* g = migrationOf(row)) return resultInt(ctx, g->cause);
                return resultNull(ctx);
            case VirtualAddress:
                if (const Migration* g = migrationOf(row)) return resultInt(ctx, int64_t(g->virtual_address));
                return resultNull(ctx);
            case CopyCount:
                if (m.copy_count == 0) return resultNull(ctx);
                return resultInt(ctx, m.copy_count);
            case SrcDeviceId:
                if (const PeerCopy* c = peerCopyOf(row)) return resultInt(ctx, c->src_device);
                return resultNull(ctx);
            case SrcContextId:
                if (const PeerCopy* c = peerCopyOf(row)) return resultInt(ctx, c->src_context);
                return resultNull(ctx);
            case DstDeviceId:
                if (const PeerCopy* c = peerCopyOf(row)) return resultInt(ctx, c->dst_device);
                return resultNull(ctx);
            case DstContextId:
                if (const PeerCopy* c = peerCopyOf(row)) return resultInt(ctx, c->dst_context);
                return resultNull(ctx);
            default:
                return resultNull(ctx);
        }
    }

private:
    const Migration* migrationOf(uint32_t memcpy) const {
        const auto& all = report_.migrations;
        const auto it = std::lower_bound(all.begin(), all.end(), memcpy,
                                         [](const Migration& m, uint32_t row) { return m.memcpy < row; });
        return it != all.end() && it->memcpy == memcpy ? &*it : nullptr;
    }
    const PeerCopy* peerCopyOf(uint32_t memcpy) const {
        const auto& all = report_.peer_copies;
        const auto it = std::lower_bound(all.begin(), all.end(), memcpy,
                                         [](const PeerCopy& c, uint32_t row) { return c.memcpy < row; });
        return it != all.end() && it->memcpy == memcpy ? &*it : nullptr;
    }
};

class MemsetTable : public GpuActivityTable {
public:
    enum Column { Value = kGpuColumns, Bytes, GraphNodeId, MemKindColumn };
    explicit MemsetTable(const Report& report)
        : GpuActivityTable(report, "CUPTI_ACTIVITY_KIND_MEMSET",
                           {{"value", I}, {"bytes", I}, {"graphNodeId", I}, {"memKind", I}}, isStreamLane,
                           EventKind::Memset) {}

protected:
    int64_t correlationOf(uint32_t event, const Lane& lane) const override {
        return report_.memsets[lane.events.payload[event]].correlation_id;
    }
    void activityValue(const Lane& lane, uint32_t event, int column, sqlite3_context* ctx) const override {
        const MemsetInfo& m = report_.memsets[lane.events.payload[event]];
        switch (column) {
            case Value:
                return resultInt(ctx, m.value);
            case Bytes:
                return resultInt(ctx, int64_t(m.bytes));
            case MemKindColumn:
                return resultInt(ctx, int64_t(m.mem_kind));
            default:
                return resultNull(ctx);
        }
    }
};

class SyncTable : public GpuActivityTable {
public:
    enum Column { DeprecatedSyncType = kGpuColumns, SyncType, EventId, EventSyncId };
    explicit SyncTable(const Report& report)
        : GpuActivityTable(report, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
                           {{"deprecatedSyncType", I}, {"syncType", I}, {"eventId", I}, {"eventSyncId", I}}, isSyncLane,
                           EventKind::Sync) {}

protected:
    int64_t correlationOf(uint32_t event, const Lane& lane) const override {
        return report_.syncs[lane.events.payload[event]].correlation_id;
    }
    // A synchronization records none (no field 9 in the file; NULL in nsys's export).
    bool recordsGreenContext(const Lane&, uint32_t) const override { return false; }
    void activityValue(const Lane& lane, uint32_t event, int column, sqlite3_context* ctx) const override {
        const SyncInfo& s = report_.syncs[lane.events.payload[event]];
        switch (column) {
            // As nsys 2025.3 exports them: a recording of before 2025 has its type in
            // deprecatedSyncType (syncType 0) and no eventSyncId; a 2025 one writes 4294967295 for none.
            case DeprecatedSyncType:
                if (!s.deprecated_type) return resultNull(ctx);
                return resultInt(ctx, s.sync_type);
            case SyncType:
                return resultInt(ctx, s.deprecated_type ? 0 : s.sync_type);
            case EventSyncId:
                if (s.event_sync_id == kNoEventSync && s.deprecated_type) return resultNull(ctx);
                return resultInt(ctx, s.event_sync_id);
            case EventId:
                return resultInt(ctx, s.event_id);
            default:
                return resultNull(ctx);
        }
    }
};

// CUPTI_ACTIVITY_KIND_RUNTIME: every CUDA runtime and driver API call of every thread, in the
// report file's order (FileOrderRows: a segment per run of one thread's calls); callchainId joins
// CUDA_CALLCHAINS.id, numbered in this order from 0 (BacktraceChains), NULL without a backtrace.
class RuntimeTable : public TableSpec {
public:
    enum Column { Start, End, EventClass, GlobalTid, CorrelationId, NameId, ReturnValue, CallchainId };
    explicit RuntimeTable(const Report& report)
        : report_(report),
          rows_(
              report, report.file_order.cuda_api, [](const Lane& l) { return l.kind == LaneKind::CudaApi; },
              FileOrderRows::Parts::Events) {}

    const std::string& name() const override { return name_; }
    const std::vector<ColumnDef>& columns() const override { return columns_; }
    size_t segmentCount() const override { return rows_.segmentCount(); }
    uint32_t segmentSize(size_t segment) const override { return rows_.segmentSize(segment); }
    int sortedColumn() const override { return Start; }
    int64_t sortedValue(size_t segment, uint32_t row) const override { return rows_.startNs(segment, row); }
    bool isSegmentColumn(int column) const override { return column == GlobalTid; }
    std::optional<int64_t> segmentValue(size_t segment, int) const override {
        return globalTidOf(report_, rows_.lane(segment).thread);
    }
    int keyColumn() const override { return CorrelationId; }
    std::optional<int64_t> keyOf(size_t segment, uint32_t row) const override {
        return rows_.lane(segment).events.payload[rows_.event(segment, row)];
    }

    void value(size_t segment, uint32_t row, int column, sqlite3_context* ctx) const override {
        const Lane& lane = rows_.lane(segment);
        const uint32_t event = rows_.event(segment, row);
        switch (column) {
            case Start:
                return resultInt(ctx, lane.events.start_ns[event]);
            case End:
                return resultInt(ctx, lane.events.endNs(event));
            case EventClass:
                if (callchainIdOf(report_, lane, event)) return resultInt(ctx, kCudaBacktraceClass);
                return resultInt(ctx, isDriverCall(report_.str(lane.events.name_id[event])) ? 1 : 0);
            case GlobalTid:
                return resultInt(ctx, globalTidOf(report_, lane.thread));
            case CorrelationId:
                return resultInt(ctx, lane.events.payload[event]);
            case NameId:
                return resultStringId(ctx, report_, lane.events.name_id[event]);
            case ReturnValue:
                return resultInt(ctx, cudaApiResult(report_, lane, event));
            case CallchainId:
                return resultInt(ctx, callchainIdOf(report_, lane, event));
            default:
                return resultNull(ctx);
        }
    }

private:
    // nsys's event classes: 67 a call recorded with its backtrace; else 0 CUDA runtime
    // (cuda...), 1 CUDA driver (cu... but not cuda...).
    static constexpr int64_t kCudaBacktraceClass = 67;
    static bool isDriverCall(std::string_view name) { return name.substr(0, 2) == "cu" && name.substr(0, 4) != "cuda"; }

    const Report& report_;
    const std::string name_ = "CUPTI_ACTIVITY_KIND_RUNTIME";
    const std::vector<ColumnDef> columns_{{"start", I},         {"end", I},    {"eventClass", I},  {"globalTid", I},
                                          {"correlationId", I}, {"nameId", I}, {"returnValue", I}, {"callchainId", I}};
    FileOrderRows rows_;
};

}  // namespace

void addCudaTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables) {
    tables.push_back(std::make_unique<KernelTable>(report));
    tables.push_back(std::make_unique<MemcpyTable>(report));
    tables.push_back(std::make_unique<MemsetTable>(report));
    tables.push_back(std::make_unique<SyncTable>(report));
    tables.push_back(std::make_unique<RuntimeTable>(report));
}

}  // namespace lanescope::sql
