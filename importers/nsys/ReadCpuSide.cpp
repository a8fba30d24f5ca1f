// The CPU side of an nsys export: call stacks (SAMPLING_CALLCHAINS, CUDA_CALLCHAINS,
// OSRT_CALLCHAINS), CPU IP samples (COMPOSITE_EVENTS) and context switches (SCHED_EVENTS).
#include <algorithm>
#include <tuple>

#include "importers/nsys/TableScan.h"

namespace lanescope::nsys {
namespace {

// One callchain row: a frame of callchain `id` at `depth` (0 = innermost).
struct ChainRow {
    int64_t id, depth;
    uint32_t function, module;
};

// Reads one *_CALLCHAINS table into the builder's stacks: callchain id -> stack id.
std::optional<ImportError> readChainTable(ImportContext& ctx, const std::string& table,
                                          std::unordered_map<int64_t, uint32_t>& stackOf) {
    if (!ctx.db.hasTable(table)) return std::nullopt;
    std::string missing;
    const std::vector<std::string> columns{"id", "stackDepth", "symbol", "module"};
    auto sql = selectByName(ctx.db, table, columns, columns, &missing);
    if (!sql) {
        countDiagnostic(ctx.report.diagnostics, Diag::TableLacksColumn, {table, missing});
        return std::nullopt;
    }
    ctx.progress.progress(table, 0, 0);
    std::vector<ChainRow> rows;
    auto named = [&](int64_t nsysId) {
        const uint32_t id = ctx.builder.string(nsysId);
        if (id != UINT32_MAX) return id;
        countDiagnostic(ctx.report.diagnostics, Diag::StringIdMissing);
        return ctx.report.strings.intern("[unknown name]");
    };
    SqliteStmt stmt(ctx.db, *sql);
    while (stmt.step()) {
        rows.push_back({stmt.i64(0), stmt.i64(1), named(stmt.i64(2)), named(stmt.i64(3))});
        if ((rows.size() & 0xFFFF) == 0 && ctx.stop.stop_requested())
            return ImportError{ImportError::Kind::Cancelled, "import cancelled"};
    }
    if (!stmt.ok())
        return ImportError{ImportError::Kind::Corrupt,
                           ctx.file.string() + ": damaged table " + table + ": " + stmt.error()};
    auto order = [](const ChainRow& a, const ChainRow& b) { return std::tie(a.id, a.depth) < std::tie(b.id, b.depth); };
    if (!std::is_sorted(rows.begin(), rows.end(), order)) std::stable_sort(rows.begin(), rows.end(), order);
    std::vector<FrameName> frames;
    for (size_t first = 0; first < rows.size();) {
        size_t last = first;
        frames.clear();
        for (; last < rows.size() && rows[last].id == rows[first].id; ++last)
            frames.push_back({rows[last].function, rows[last].module});
        stackOf[rows[first].id] = ctx.builder.stacks().intern(frames);
        first = last;
    }
    return std::nullopt;
}

}  // namespace

std::optional<ImportError> readCallchains(ImportContext& ctx) {
    if (auto e = readChainTable(ctx, "SAMPLING_CALLCHAINS", ctx.callchains.sampling)) return e;
    if (auto e = readChainTable(ctx, "CUDA_CALLCHAINS", ctx.callchains.cuda)) return e;
    return readChainTable(ctx, "OSRT_CALLCHAINS", ctx.callchains.osrt);
}

std::optional<ImportError> readCpuSamples(ImportContext& ctx) {
    enum SampleCol { Id, Start, Tid, State, Cycles };
    const CallStacks& stacks = ctx.builder.stacks().stacks();  // complete: read-only from here on
    const auto& stackOf = ctx.callchains.sampling;
    const uint32_t noStack = ctx.report.strings.intern("[no call stack]");
    auto samples = scanEventTable(
        ctx, "COMPOSITE_EVENTS", {"id", "start", "globalTid", "threadState", "cpuCycles"}, {"id", "start", "globalTid"},
        [&](const SqliteStmt& row, EventChunk& chunk) {
            if (!validTime(chunk, row.i64(Start))) return;
            const auto it = stackOf.find(row.i64(Id));
            const uint32_t stack = it == stackOf.end() ? kNoStack : it->second;
            pushInstant(chunk, LaneKey{LaneKind::CpuSamples, row.i64(Tid)}, row.i64(Start),
                        stack == kNoStack ? noStack : stacks.frame_function[stacks.node_frame[stack]], stack);
            const auto state =
                static_cast<uint32_t>(std::clamp<int64_t>(row.i64OrNull(State).value_or(0), 0, UINT32_MAX));
            const int64_t cycles = row.i64OrNull(Cycles).value_or(0);
            if (state != kUsualSampleState || cycles != kUsualSampleCycles)
                chunk.unusualSamples.push_back({row.i64(Tid), row.i64(Start), state, cycles});
        });
    if (samples) return samples;

    // Context switches: read in table order, made into lanes once all are known.
    if (!ctx.db.hasTable("SCHED_EVENTS")) return std::nullopt;
    std::string missing;
    auto sql = selectByName(ctx.db, "SCHED_EVENTS", {"start", "cpu", "isSchedIn", "globalTid", "threadState"},
                            {"start", "cpu", "isSchedIn", "globalTid"}, &missing);
    if (!sql) {
        countDiagnostic(ctx.report.diagnostics, Diag::TableLacksColumn, {"SCHED_EVENTS", missing});
        return std::nullopt;
    }
    ctx.progress.progress("SCHED_EVENTS", 0, 0);
    SqliteStmt stmt(ctx.db, *sql);
    for (uint64_t n = 0; stmt.step(); ++n) {
        if (!validTime(ctx.report.diagnostics, stmt.i64(0))) continue;
        ctx.builder.addSched({stmt.i64(0), stmt.i64(3), static_cast<int32_t>(stmt.i64(1)), stmt.i64(2) != 0,
                              stmt.isNull(4) ? kUnrecordedSchedState : static_cast<int32_t>(stmt.i64(4))});
        if ((n & 0xFFFF) == 0 && ctx.stop.stop_requested())
            return ImportError{ImportError::Kind::Cancelled, "import cancelled"};
    }
    if (!stmt.ok())
        return ImportError{ImportError::Kind::Corrupt,
                           ctx.file.string() + ": damaged table SCHED_EVENTS: " + stmt.error()};
    return std::nullopt;
}

}  // namespace lanescope::nsys
