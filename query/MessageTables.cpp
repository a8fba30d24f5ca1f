#include "query/MessageTables.h"

#include "query/SortedFunctionTable.h"
#include "query/SqlValues.h"

namespace lanescope::sql {
namespace {

constexpr auto I = ColumnType::Integer;
constexpr auto T = ColumnType::Text;

}  // namespace

void addMessageTables(const Report& r, std::vector<std::unique_ptr<TableSpec>>& tables) {
    // DIAGNOSTIC_EVENT in the report's order (not by time: nsys's own order). globalPid as
    // recorded, else its process's, NULL for none.
    enum { Timestamp, TimestampType, Source, Severity, Text, GlobalPid };
    tables.push_back(std::make_unique<FunctionTable>(
        "DIAGNOSTIC_EVENT",
        std::vector<ColumnDef>{
            {"timestamp", I}, {"timestampType", I}, {"source", I}, {"severity", I}, {"text", T}, {"globalPid", I}},
        [&r] { return uint32_t(r.nsys_messages.size()); },
        [&r](uint32_t row, int column, sqlite3_context* ctx) {
            const NsysMessage& m = r.nsys_messages[row];
            switch (column) {
                case Timestamp:
                    return resultInt(ctx, m.time_ns);
                case TimestampType:
                    return resultInt(ctx, m.time_source);
                case Source:
                    return resultInt(ctx, m.source);
                case Severity:
                    return resultInt(ctx, m.severity);
                case Text:
                    return resultText(ctx, m.text);
                default:
                    if (m.global_pid != NsysMessage::kNoGlobalPid) return resultInt(ctx, m.global_pid);
                    return resultInt(ctx, globalPidOf(r, m.process));
            }
        }));
    // PROFILER_OVERHEAD, sorted by start. globalTid is NULL when the model knows no thread for
    // the range; returnValue as recorded.
    enum { Start, End, GlobalTid, NameId, ReturnValue };
    tables.push_back(std::make_unique<SortedFunctionTable>(
        "PROFILER_OVERHEAD",
        std::vector<ColumnDef>{{"start", I}, {"end", I}, {"globalTid", I}, {"nameId", I}, {"returnValue", I}},
        [&r] { return uint32_t(r.profiler_overhead.size()); },
        [&r](uint32_t row, int column, sqlite3_context* ctx) {
            const OverheadRange& o = r.profiler_overhead[row];
            switch (column) {
                case Start:
                    return resultInt(ctx, o.start_ns);
                case End:
                    return resultInt(ctx, o.end_ns);
                case GlobalTid:
                    return resultInt(ctx, globalTidOf(r, o.thread));
                case NameId:
                    return resultStringId(ctx, r, o.name_id);
                default:
                    return resultInt(ctx, o.return_value);
            }
        },
        Start, [&r](uint32_t row) { return r.profiler_overhead[row].start_ns; }));
}

}  // namespace lanescope::sql
