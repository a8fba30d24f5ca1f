#include <algorithm>

#include "importers/nsys/TableScan.h"

namespace lanescope::nsys {

// DIAGNOSTIC_EVENT: Nsight Systems' own messages, in table order.
std::optional<ImportError> readNsysMessages(ImportContext& ctx) {
    enum { Time, TimeSource, Source, Severity, Text, Pid };
    auto small = [](const SqliteStmt& row, int col) {
        return static_cast<uint8_t>(row.isNull(col) ? 0 : std::clamp<int64_t>(row.i64(col), 0, 255));
    };
    return scanEventTable(ctx, "DIAGNOSTIC_EVENT",
                          {"timestamp", "timestampType", "source", "severity", "text", "globalPid"}, {"text"},
                          [&](const SqliteStmt& row, EventChunk& chunk) {
                              PendingNsysMessage m;
                              m.global_pid = row.isNull(Pid) ? NsysMessage::kNoGlobalPid : row.i64(Pid);
                              m.message.time_ns = row.isNull(Time) ? 0 : row.i64(Time);
                              m.message.time_source = small(row, TimeSource);
                              m.message.source = small(row, Source);
                              m.message.severity = small(row, Severity);
                              m.message.text = std::string(row.text(Text));
                              chunk.nsysMessages.push_back(std::move(m));
                          });
}

}  // namespace lanescope::nsys
