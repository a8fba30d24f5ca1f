#include "importers/nsys/TableScan.h"

namespace lanescope::nsys {
namespace {

enum Col { Start, End, Tid, NameId, Correlation, EventClass, Callchain, Result };

// OSRT_API.eventClass of a call (ENUM_NSYS_EVENT_CLASS TRACE_PROCESS_EVENT_OS_RUNTIME); the
// other classes mark the start and end of OS runtime tracing and become instants.
constexpr int64_t kOsRuntimeCall = 27;

// The stack of a call by its callchainId: CUDA calls have one when it is not NULL (ids from
// 0), OS runtime calls when it is not 0 (ids from 1).
void addBacktrace(EventChunk& chunk, const SqliteStmt& row, LaneKind lane, const CallchainStacks& chains,
                  const CallStacks& callStacks) {
    const auto& stacks = lane == LaneKind::CudaApi ? chains.cuda : chains.osrt;
    if (row.isNull(Callchain)) return;
    const int64_t id = row.i64(Callchain);
    if (lane == LaneKind::OsRuntime && id == 0) return;
    const auto it = stacks.find(id);
    if (it == stacks.end()) {
        countDiagnostic(chunk.diagnostics, Diag::CallchainMissing);
        return;
    }
    const uint32_t firstDetail = appendChainDetails(chains, callStacks, it->second, chunk.backtraceFrameDetails);
    chunk.backtraces.push_back({row.i64(Tid), lane, row.i64(Start), it->second.stack, firstDetail});
}

std::optional<ImportError> readCalls(ImportContext& ctx, const std::string& table, LaneKind lane, EventKind kind,
                                     Diag withoutEnd) {
    const ReportBuilder& builder = ctx.builder;
    const CallStacks& callStacks = ctx.builder.stacks().stacks();  // complete: read-only from here on
    return scanEventTable(
        ctx, table,
        {"start", "end", "globalTid", "nameId", "correlationId", "eventClass", "callchainId", "returnValue"},
        {"start", "end", "globalTid", "nameId"}, [&](const SqliteStmt& row, EventChunk& chunk) {
            if (kind == EventKind::OsRuntimeCall && !row.isNull(EventClass) && row.i64(EventClass) != kOsRuntimeCall) {
                if (!validTime(chunk, row.i64(Start))) return;
                // The class, where tracing started (31) or stopped (32): model/Lane.h OsRuntime.
                const int64_t eventClass = row.i64(EventClass);
                pushInstant(chunk, LaneKey{lane, row.i64(Tid)}, row.i64(Start), nameOf(builder, chunk, row.i64(NameId)),
                            eventClass == 31 || eventClass == 32 ? static_cast<uint32_t>(eventClass) : kNoPayload);
                return;
            }
            if (!validInterval(chunk, row, Start, End, withoutEnd)) return;
            const uint32_t payload =
                kind == EventKind::CudaApiCall ? static_cast<uint32_t>(row.i64(Correlation)) : kNoPayload;
            pushInterval(chunk, {lane, row.i64(Tid)}, row.i64(Start), row.i64(End),
                         nameOf(builder, chunk, row.i64(NameId)), kind, payload);
            addBacktrace(chunk, row, lane, ctx.callchains, callStacks);
            if ((kind == EventKind::CudaApiCall || kind == EventKind::OsRuntimeCall) && !row.isNull(Result) &&
                row.i64(Result) != 0)
                chunk.callResults.push_back(
                    {row.i64(Tid), row.i64(Start), payload, static_cast<int32_t>(row.i64(Result))});
        });
}

// MPI calls without parameters (2025.3 exports move the "MPI" NVTX domain of older captures
// here; ReportBuilder::complete moves that domain's ranges to MPI lanes for other readers).
std::optional<ImportError> readMpiCalls(ImportContext& ctx) {
    enum MpiCol { MpiStart, MpiEnd, MpiTid, MpiText };
    const ReportBuilder& builder = ctx.builder;
    return scanEventTable(ctx, "MPI_OTHER_EVENTS", {"start", "end", "globalTid", "textId"},
                          {"start", "end", "globalTid", "textId"}, [&](const SqliteStmt& row, EventChunk& chunk) {
                              if (!validInterval(chunk, row, MpiStart, MpiEnd, Diag::MpiWithoutEnd)) return;
                              pushInterval(chunk, {LaneKind::Mpi, row.i64(MpiTid)}, row.i64(MpiStart), row.i64(MpiEnd),
                                           nameOf(builder, chunk, row.i64(MpiText)), EventKind::MpiCall, kNoPayload);
                          });
}

// OpenMP events (OMPT callbacks): one table per event kind (OPENMP_EVENT_KIND_PARALLEL,
// _WORKSHARE, _SYNC_REGION, _TASK, _TASK_CREATE, _CRITICAL_SECTION, _MUTEX_WAIT, ...), all
// with a start, end, thread and name; task creations have no duration. Every table of the
// family is read, in name order, into the thread's OpenMP lane.
std::optional<ImportError> readOpenMpEvents(ImportContext& ctx) {
    enum OmpCol { OmpStart, OmpEnd, OmpTid, OmpName };
    const ReportBuilder& builder = ctx.builder;
    for (const std::string& table : ctx.db.tablesStartingWith("OPENMP_EVENT_KIND_"))
        if (auto error = scanEventTable(
                ctx, table, {"start", "end", "globalTid", "nameId"}, {"start", "end", "globalTid", "nameId"},
                [&](const SqliteStmt& row, EventChunk& chunk) {
                    if (!validInterval(chunk, row, OmpStart, OmpEnd, Diag::OpenMpWithoutEnd)) return;
                    pushInterval(chunk, {LaneKind::OpenMp, row.i64(OmpTid)}, row.i64(OmpStart), row.i64(OmpEnd),
                                 nameOf(builder, chunk, row.i64(OmpName)), EventKind::OpenMpEvent, kNoPayload);
                }))
            return error;
    return std::nullopt;
}

}  // namespace

std::optional<ImportError> readCpuCalls(ImportContext& ctx) {
    for (const char* table : {"CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_DRIVER"})
        if (auto error = readCalls(ctx, table, LaneKind::CudaApi, EventKind::CudaApiCall, Diag::CudaApiWithoutEnd))
            return error;
    if (auto error = readCalls(ctx, "OSRT_API", LaneKind::OsRuntime, EventKind::OsRuntimeCall, Diag::OsrtWithoutEnd))
        return error;
    if (auto error = readMpiCalls(ctx)) return error;
    return readOpenMpEvents(ctx);
}

}  // namespace lanescope::nsys
