#include "query/CudaExtraTables.h"

#include "query/CudaEventRows.h"
#include "query/GpuLaneValues.h"
#include "query/LaneEventTable.h"
#include "query/SortedFunctionTable.h"

namespace lanescope::sql {
namespace {

constexpr auto I = ColumnType::Integer;

bool isStreamLane(const Lane& lane) { return lane.kind == LaneKind::GpuStream; }

// ENUM_NSYS_EVENT_CLASS values of the graphs' CPU-side events.
constexpr int64_t kGraphNodeCreationClass = 77, kGraphExecCreationClass = 94, kGraphCreationClass = 95,
                  kGraphCloneClass = 96;

// CUPTI_ACTIVITY_KIND_GRAPH_TRACE: the GraphExecution events of the stream lanes. The device,
// context, stream and process are the lane's (segment columns); correlationId (of the
// cudaGraphLaunch) is the key.
class GraphTraceTable : public LaneEventTable {
public:
    enum Column {
        Start,
        End,
        DeviceId,
        ContextId,
        GreenContextId,
        StreamId,
        CorrelationId,
        GlobalPid,
        GraphId,
        GraphExecId
    };
    explicit GraphTraceTable(const Report& report)
        : LaneEventTable(report, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
                         {{"start", I},
                          {"end", I},
                          {"deviceId", I},
                          {"contextId", I},
                          {"greenContextId", I},
                          {"streamId", I},
                          {"correlationId", I},
                          {"globalPid", I},
                          {"graphId", I},
                          {"graphExecId", I}},
                         isStreamLane, LaneEvents::Part::Intervals, EventKind::GraphExecution) {}

    bool isSegmentColumn(int column) const override { return laneField(column).has_value(); }
    std::optional<int64_t> segmentValue(size_t segment, int column) const override {
        return gpuLaneValue(report_, rows_.lane(segment), *laneField(column));
    }
    int keyColumn() const override { return CorrelationId; }
    std::optional<int64_t> keyOf(size_t segment, uint32_t row) const override {
        return graphOf(rows_.lane(segment), rows_.event(segment, row)).correlation_id;
    }

protected:
    void eventValue(const Lane& lane, uint32_t event, int column, sqlite3_context* ctx) const override {
        if (const auto field = laneField(column)) return resultInt(ctx, gpuLaneValue(report_, lane, *field));
        const GraphExecutionInfo& g = graphOf(lane, event);
        switch (column) {
            case Start:
                return resultInt(ctx, lane.events.start_ns[event]);
            case End:
                return resultInt(ctx, lane.events.endNs(event));
            case CorrelationId:
                return resultInt(ctx, g.correlation_id);
            case GraphId:
                return resultInt(ctx, g.graph_id);
            case GraphExecId:
                return resultInt(ctx, g.graph_exec_id);
            case GreenContextId:
                return resultInt(ctx, greenContextIdOf(report_, lane));
            default:
                return resultNull(ctx);
        }
    }

private:
    const GraphExecutionInfo& graphOf(const Lane& lane, uint32_t event) const {
        return report_.graph_executions[lane.events.payload[event]];
    }
    static std::optional<GpuLaneField> laneField(int column) {
        return GpuLaneColumns{DeviceId, ContextId, StreamId, GlobalPid}.fieldOf(column);
    }
};

// CUPTI_ACTIVITY_KIND_CUDA_EVENT: the CUDA event records, in the order CudaEventRows gives (an
// Nsight Systems report's: the file's). nsys gives a record no time, so the table has no start
// column and no sorted column; correlationId (of the cudaEventRecord) is the key.
class CudaEventTable : public TableSpec {
public:
    enum Column { DeviceId, ContextId, GreenContextId, StreamId, CorrelationId, GlobalPid, EventId, EventSyncId };
    explicit CudaEventTable(const Report& report) : report_(report), rows_(report) {}

    const std::string& name() const override { return name_; }
    const std::vector<ColumnDef>& columns() const override { return columns_; }
    size_t segmentCount() const override { return rows_.segmentCount(); }
    uint32_t segmentSize(size_t segment) const override { return rows_.segmentSize(segment); }
    bool isSegmentColumn(int column) const override { return laneField(column).has_value(); }
    std::optional<int64_t> segmentValue(size_t segment, int column) const override {
        return gpuLaneValue(report_, rows_.lane(segment), *laneField(column));
    }
    int keyColumn() const override { return CorrelationId; }
    std::optional<int64_t> keyOf(size_t segment, uint32_t row) const override {
        const CudaEventInfo* e = recordOf(segment, row);
        return e ? std::optional<int64_t>(e->correlation_id) : std::nullopt;
    }

    void value(size_t segment, uint32_t row, int column, sqlite3_context* ctx) const override {
        if (const auto field = laneField(column))
            return resultInt(ctx, gpuLaneValue(report_, rows_.lane(segment), *field));
        const CudaEventInfo* e = recordOf(segment, row);
        if (!e) return resultNull(ctx);
        switch (column) {
            case CorrelationId:
                return resultInt(ctx, e->correlation_id);
            case EventId:
                return resultInt(ctx, e->event_id);
            case EventSyncId:
                if (e->event_sync_id == kNoEventSync) return resultNull(ctx);  // none recorded (before nsys 2023)
                return resultInt(ctx, e->event_sync_id);
            case GreenContextId:
                return resultInt(ctx, greenContextIdOf(report_, rows_.lane(segment)));
            default:
                return resultNull(ctx);
        }
    }

private:
    // The record of a row; null when the instant's payload is no row of cuda_events.
    const CudaEventInfo* recordOf(size_t segment, uint32_t row) const {
        const uint32_t payload = rows_.record(segment, row);
        return payload < report_.cuda_events.size() ? &report_.cuda_events[payload] : nullptr;
    }
    static std::optional<GpuLaneField> laneField(int column) {
        return GpuLaneColumns{DeviceId, ContextId, StreamId, GlobalPid}.fieldOf(column);
    }

    const Report& report_;
    const std::string name_ = "CUPTI_ACTIVITY_KIND_CUDA_EVENT";
    const std::vector<ColumnDef> columns_{{"deviceId", I}, {"contextId", I},     {"greenContextId", I},
                                          {"streamId", I}, {"correlationId", I}, {"globalPid", I},
                                          {"eventId", I},  {"eventSyncId", I}};
    CudaEventRows rows_;
};

std::optional<int64_t> graphIdValue(uint64_t id) {
    return id == kNoGraphId ? std::nullopt : std::optional<int64_t>(int64_t(id));
}

// CUDA_GRAPH_EVENTS (node false) or CUDA_GRAPH_NODE_EVENTS (node true): the rows of
// Report::graph_api_events of that kind, in its order (by start). eventClass is inferred from
// the ids the model keeps: a node event is a node creation, a graph event with an executable
// graph an instantiation, one with an original graph a clone, any other a creation.
std::unique_ptr<TableSpec> graphApiTable(const Report& r, bool node) {
    // The rows of graph_api_events of this table's kind, ascending (so by start).
    auto rows = std::make_shared<std::vector<uint32_t>>();
    for (uint32_t i = 0; i < r.graph_api_events.size(); ++i)
        if (r.graph_api_events[i].node == node) rows->push_back(i);
    std::vector<ColumnDef> columns{{"start", I}, {"end", I}, {"eventClass", I}, {"globalTid", I}, {"nameId", I}};
    if (node)
        columns.insert(columns.end(), {{"graphNodeId", I}, {"originalGraphNodeId", I}});
    else
        columns.insert(columns.end(), {{"graphId", I}, {"originalGraphId", I}, {"graphExecId", I}});
    enum Column { Start, End, EventClass, GlobalTid, NameId, Id, OriginalId, ExecId };
    return std::make_unique<SortedFunctionTable>(
        node ? "CUDA_GRAPH_NODE_EVENTS" : "CUDA_GRAPH_EVENTS", std::move(columns),
        [rows] { return uint32_t(rows->size()); },
        [&r, rows](uint32_t row, int column, sqlite3_context* ctx) {
            const GraphApiEvent& e = r.graph_api_events[(*rows)[row]];
            switch (column) {
                case Start:
                    return resultInt(ctx, e.start_ns);
                case End:
                    return resultInt(ctx, e.end_ns);
                case EventClass:
                    return resultInt(ctx, e.node                              ? kGraphNodeCreationClass
                                          : e.graph_exec_id != kNoGraphId     ? kGraphExecCreationClass
                                          : e.original_graph_id != kNoGraphId ? kGraphCloneClass
                                                                              : kGraphCreationClass);
                case GlobalTid:
                    return resultInt(ctx, globalTidOf(r, e.thread));
                case NameId:
                    return resultStringId(ctx, r, e.name_id);
                case Id:
                    return resultInt(ctx, graphIdValue(e.graph_id));
                case OriginalId:
                    return resultInt(ctx, graphIdValue(e.original_graph_id));
                case ExecId:
                    return resultInt(ctx, graphIdValue(e.graph_exec_id));
                default:
                    return resultNull(ctx);
            }
        },
        Start, [&r, rows](uint32_t row) { return r.graph_api_events[(*rows)[row]].start_ns; });
}

}  // namespace

void addCudaExtraTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables) {
    tables.push_back(std::make_unique<GraphTraceTable>(report));
    tables.push_back(std::make_unique<CudaEventTable>(report));
    tables.push_back(graphApiTable(report, false));
    tables.push_back(graphApiTable(report, true));
}

}  // namespace lanescope::sql
