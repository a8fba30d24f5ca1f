#include "importers/nsys/TableScan.h"

namespace lanescope::nsys {
namespace {

enum Col { Start, End, Tid, NameId, Correlation, EventClass };

// OSRT_API.eventClass of a call (ENUM_NSYS_EVENT_CLASS TRACE_PROCESS_EVENT_OS_RUNTIME); the
// other classes mark the start and end of OS runtime tracing and become instants.
constexpr int64_t kOsRuntimeCall = 27;

std::optional<ImportError> readCalls(ImportContext& ctx, const std::string& table, LaneKind lane, EventKind kind,
                                     Diag withoutEnd) {
    const ReportBuilder& builder = ctx.builder;
    return scanEventTable(
        ctx, table, {"start", "end", "globalTid", "nameId", "correlationId", "eventClass"},
        {"start", "end", "globalTid", "nameId"}, [&](const SqliteStmt& row, EventChunk& chunk) {
            if (kind == EventKind::OsRuntimeCall && !row.isNull(EventClass) && row.i64(EventClass) != kOsRuntimeCall) {
                if (!validTime(chunk, row.i64(Start))) return;
                PendingInstants& in = chunk.lane(LaneKey{lane, row.i64(Tid)}).instants;
                in.time_ns.push_back(row.i64(Start));
                in.name_id.push_back(nameOf(builder, chunk, row.i64(NameId)));
                in.payload.push_back(kNoPayload);
                return;
            }
            if (!validInterval(chunk, row, Start, End, withoutEnd)) return;
            const uint32_t payload =
                kind == EventKind::CudaApiCall ? static_cast<uint32_t>(row.i64(Correlation)) : kNoPayload;
            pushInterval(chunk, {lane, row.i64(Tid)}, row.i64(Start), row.i64(End),
                         nameOf(builder, chunk, row.i64(NameId)), kind, payload);
        });
}

}  // namespace

std::optional<ImportError> readCpuCalls(ImportContext& ctx) {
    for (const char* table : {"CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_DRIVER"})
        if (auto error = readCalls(ctx, table, LaneKind::CudaApi, EventKind::CudaApiCall, Diag::CudaApiWithoutEnd))
            return error;
    return readCalls(ctx, "OSRT_API", LaneKind::OsRuntime, EventKind::OsRuntimeCall, Diag::OsrtWithoutEnd);
}

}  // namespace lanescope::nsys
