#include <algorithm>
#include <unordered_map>

#include "importers/nsys/TableScan.h"

namespace lanescope::nsys {

// PROFILER_OVERHEAD -> Report::profiler_overhead, sorted by start. Read after the event
// tables, so the processes are known: a range belongs to the process with the pid of its
// globalTid (nsys's gpu_gaps rule matches overhead to GPU work by pid too), -1 if none, and
// to its thread (made if it has no other events) when the process is known.
std::optional<ImportError> readProfilerOverhead(ImportContext& ctx) {
    const std::string table = "PROFILER_OVERHEAD";
    if (!ctx.db.hasTable(table)) return std::nullopt;
    std::string missing;
    auto sql = selectByName(ctx.db, table, {"start", "end", "globalTid", "nameId", "returnValue"},
                            {"start", "end", "nameId"}, &missing);
    if (!sql) {
        countDiagnostic(ctx.report.diagnostics, Diag::TableLacksColumn, {table, missing});
        return std::nullopt;
    }
    Report& report = ctx.report;
    std::unordered_map<int64_t, int32_t> processOfPid;
    for (size_t p = 0; p < report.processes.size(); ++p)
        processOfPid.try_emplace(report.processes[p].pid, static_cast<int32_t>(p));

    Column<OverheadRange> ranges;
    SqliteStmt stmt(ctx.db, *sql);
    while (stmt.step()) {
        if (stmt.isNull(0) || stmt.isNull(1)) {
            countDiagnostic(report.diagnostics, Diag::ProfilerOverheadWithoutEnd);
            continue;
        }
        if (stmt.i64(1) < stmt.i64(0)) {
            countDiagnostic(report.diagnostics, Diag::NegativeDuration);
            continue;
        }
        OverheadRange o;
        o.start_ns = stmt.i64(0);
        o.end_ns = stmt.i64(1);
        if (!stmt.isNull(2)) {
            auto it = processOfPid.find((stmt.i64(2) >> 24) & 0xFFFFFF);
            if (it != processOfPid.end()) {
                o.process = it->second;
                o.thread = ctx.builder.threadIndex(stmt.i64(2));
            }
        }
        o.name_id = ctx.builder.string(stmt.i64(3));
        o.return_value = stmt.isNull(4) ? 0 : static_cast<int32_t>(stmt.i64(4));
        if (o.name_id == UINT32_MAX) {
            countDiagnostic(report.diagnostics, Diag::StringIdMissing);
            o.name_id = report.strings.intern("[unknown name]");
        }
        ranges.push_back(o);
    }
    if (!stmt.ok())
        return ImportError{ImportError::Kind::Corrupt,
                           ctx.file.string() + ": damaged table " + table + ": " + stmt.error()};
    std::stable_sort(ranges.begin(), ranges.end(),
                     [](const OverheadRange& a, const OverheadRange& b) { return a.start_ns < b.start_ns; });
    ranges.shrink_to_fit();
    report.profiler_overhead = std::move(ranges);
    return std::nullopt;
}

}  // namespace lanescope::nsys
