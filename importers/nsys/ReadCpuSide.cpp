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
    FrameDetail detail;
};

// A frame column as FrameDetail keeps it: kAbsentFrameField for NULL (or a table without it).
uint8_t frameField(const SqliteStmt& stmt, int column) {
    if (stmt.isNull(column)) return kAbsentFrameField;
    return static_cast<uint8_t>(std::clamp<int64_t>(stmt.i64(column), 0, kAbsentFrameField - 1));
}

// Reads one *_CALLCHAINS table into the builder's stacks and the chains' frame details:
// callchain id -> its stack and details.
std::optional<ImportError> readChainTable(ImportContext& ctx, const std::string& table,
                                          std::unordered_map<int64_t, Callchain>& chainOf) {
    if (!ctx.db.hasTable(table)) return std::nullopt;
    std::string missing;
    enum { Id, Depth, Symbol, Module, KernelMode, ThumbCode, Unresolved, OriginalIp, UnwindMethod };
    const std::vector<std::string> required{"id", "stackDepth", "symbol", "module"};
    std::vector<std::string> columns = required;
    for (const char* more : {"kernelMode", "thumbCode", "unresolved", "originalIP", "unwindMethod"})
        columns.push_back(more);
    auto sql = selectByName(ctx.db, table, columns, required, &missing);
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
        const FrameDetail detail{stmt.i64(OriginalIp),           frameField(stmt, KernelMode),
                                 frameField(stmt, ThumbCode),    frameField(stmt, Unresolved),
                                 frameField(stmt, UnwindMethod), !stmt.isNull(OriginalIp)};
        rows.push_back({stmt.i64(Id), stmt.i64(Depth), named(stmt.i64(Symbol)), named(stmt.i64(Module)), detail});
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
        const auto firstDetail = static_cast<uint32_t>(ctx.callchains.details.size());
        for (; last < rows.size() && rows[last].id == rows[first].id; ++last) {
            frames.push_back({rows[last].function, rows[last].module});
            ctx.callchains.details.push_back(rows[last].detail);
        }
        chainOf[rows[first].id] = {ctx.builder.stacks().intern(frames), firstDetail};
        first = last;
    }
    return std::nullopt;
}

}  // namespace

uint32_t appendChainDetails(const CallchainStacks& chains, const CallStacks& stacks, const Callchain& chain,
                            std::vector<FrameDetail>& out) {
    const auto first = static_cast<uint32_t>(out.size());
    size_t at = chain.first_detail;
    for (uint32_t node = chain.stack; node != kNoStack && at < chains.details.size(); node = stacks.node_parent[node])
        out.push_back(chains.details[at++]);
    return first;
}

std::optional<ImportError> readCallchains(ImportContext& ctx) {
    if (auto e = readChainTable(ctx, "SAMPLING_CALLCHAINS", ctx.callchains.sampling)) return e;
    if (auto e = readChainTable(ctx, "CUDA_CALLCHAINS", ctx.callchains.cuda)) return e;
    return readChainTable(ctx, "OSRT_CALLCHAINS", ctx.callchains.osrt);
}

std::optional<ImportError> readCpuSamples(ImportContext& ctx) {
    enum SampleCol { Id, Start, Tid, State, Cycles };
    const CallStacks& stacks = ctx.builder.stacks().stacks();  // complete: read-only from here on
    const auto& chainOf = ctx.callchains.sampling;
    const uint32_t noStack = ctx.report.strings.intern("[no call stack]");
    auto samples = scanEventTable(
        ctx, "COMPOSITE_EVENTS", {"id", "start", "globalTid", "threadState", "cpuCycles"}, {"id", "start", "globalTid"},
        [&](const SqliteStmt& row, EventChunk& chunk) {
            if (!validTime(chunk, row.i64(Start))) return;
            const auto it = chainOf.find(row.i64(Id));
            const uint32_t stack = it == chainOf.end() ? kNoStack : it->second.stack;
            if (it != chainOf.end()) appendChainDetails(ctx.callchains, stacks, it->second, chunk.sampleFrameDetails);
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
