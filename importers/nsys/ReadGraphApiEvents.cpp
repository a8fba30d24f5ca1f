#include "importers/nsys/TableScan.h"

namespace lanescope::nsys {
namespace {

// One of the two tables of a CUDA graph's CPU-side events. Node events name their node in
// the id columns, graph events their graph (and executable graph).
std::optional<ImportError> readTable(ImportContext& ctx, const std::string& table, bool node) {
    enum { Start, End, Tid, NameId, Id, OriginalId, ExecId };
    const ReportBuilder& b = ctx.builder;
    const std::vector<std::string> columns =
        node
            ? std::vector<std::string>{"start",      "end", "globalTid", "nameId", "graphNodeId", "originalGraphNodeId",
                                       "graphExecId"}
            : std::vector<std::string>{"start",           "end",        "globalTid", "nameId", "graphId",
                                       "originalGraphId", "graphExecId"};
    auto id = [](const SqliteStmt& row, int col) {
        return row.isNull(col) ? kNoGraphId : static_cast<uint64_t>(row.i64(col));
    };
    return scanEventTable(ctx, table, columns, {"start", "globalTid", "nameId"},
                          [&](const SqliteStmt& row, EventChunk& chunk) {
                              if (!validTime(chunk, row.i64(Start))) return;
                              GraphApiEvent e;
                              e.start_ns = row.i64(Start);
                              e.end_ns = row.isNull(End) ? e.start_ns : std::max(e.start_ns, row.i64(End));
                              e.name_id = nameOf(b, chunk, row.i64(NameId));
                              e.node = node;
                              e.graph_id = id(row, Id);
                              e.original_graph_id = id(row, OriginalId);
                              e.graph_exec_id = node ? kNoGraphId : id(row, ExecId);
                              chunk.graphApiEvents.push_back({row.i64(Tid), e});
                          });
}

}  // namespace

std::optional<ImportError> readGraphApiEvents(ImportContext& ctx) {
    if (auto error = readTable(ctx, "CUDA_GRAPH_EVENTS", false)) return error;
    return readTable(ctx, "CUDA_GRAPH_NODE_EVENTS", true);
}

}  // namespace lanescope::nsys
