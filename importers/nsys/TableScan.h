#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "importers/nsys/ChunkedScan.h"
#include "importers/nsys/TableReaders.h"
#include "model/DiagnosticKinds.h"

namespace lanescope::nsys {

// Reads the named columns of `table` in parallel chunks, calling onRow(stmt, chunk) per
// row, then merges the chunks in order. An absent table reads nothing; an absent
// required column skips the table with the diagnostic `<table>_lacks_<column>`.
template <class OnRow>
std::optional<ImportError> scanEventTable(ImportContext& ctx, const std::string& table,
                                          const std::vector<std::string>& wanted,
                                          const std::vector<std::string>& required, OnRow onRow) {
    if (!ctx.db.hasTable(table)) return std::nullopt;
    std::string missing;
    auto sql = selectByName(ctx.db, table, wanted, required, &missing);
    if (!sql) {
        countDiagnostic(ctx.report.diagnostics, Diag::TableLacksColumn, {table, missing});
        return std::nullopt;
    }
    std::vector<EventChunk> chunks;
    const ScanStatus status =
        scanInChunks(ctx.file, ctx.db, table, *sql, ctx.threads, ctx.stop, ctx.progress, chunks, onRow);
    if (status.cancelled) return ImportError{ImportError::Kind::Cancelled, "import cancelled"};
    if (!status.ok)
        return ImportError{ImportError::Kind::Corrupt,
                           ctx.file.string() + ": damaged table " + table + ": " + status.error};
    ctx.progress.progress("merging rows into lanes", 0, 0);
    ctx.builder.merge(chunks, ctx.threads);
    return std::nullopt;
}

// An export's integer column as a uint32 model field, clamped to [0, 2^32 - 1].
inline uint32_t clampU32(int64_t v) { return static_cast<uint32_t>(std::clamp<int64_t>(v, 0, UINT32_MAX)); }
// An ENUM_CUDA_MEM_KIND value; Unknown for one out of its range.
inline MemKind memKindOf(int64_t v) { return static_cast<MemKind>(v >= 0 && v <= 7 ? v : 7); }

// True when t lies less than 2^62 ns (146 years) from the report's zero, so that the
// difference of any two accepted times fits in int64; otherwise counts
// `timestamp_out_of_range`.
inline bool validTime(Diagnostics& diagnostics, int64_t t) {
    constexpr int64_t kLimit = int64_t{1} << 62;
    if (t > -kLimit && t < kLimit) return true;
    countDiagnostic(diagnostics, Diag::TimestampOutOfRange);
    return false;
}
inline bool validTime(EventChunk& chunk, int64_t t) { return validTime(chunk.diagnostics, t); }

// True when the row's start and end are present, within range and ordered; otherwise counts
// `withoutEnd` (kernel_without_end, ...), `timestamp_out_of_range` or `negative_duration` and
// the row is to be skipped.
inline bool validInterval(EventChunk& chunk, const SqliteStmt& row, int startCol, int endCol, Diag withoutEnd) {
    if (row.isNull(startCol) || row.isNull(endCol)) {
        countDiagnostic(chunk.diagnostics, withoutEnd);
        return false;
    }
    if (!validTime(chunk, row.i64(startCol)) || !validTime(chunk, row.i64(endCol))) return false;
    if (row.i64(endCol) < row.i64(startCol)) {
        countDiagnostic(chunk.diagnostics, Diag::NegativeDuration);
        return false;
    }
    return true;
}

inline void pushInterval(EventChunk& chunk, const LaneKey& key, int64_t start, int64_t end, uint32_t name,
                         EventKind kind, uint32_t payload) {
    PendingLane& lane = chunk.lane(key);
    lane.events.append(start, end, name, payload, kind);
    chunk.noteFileOrder(key.kind, lane, false);
}

// Adds an instant to the lane of `key`, noted in the file order as pushInterval notes an event.
inline void pushInstant(EventChunk& chunk, const LaneKey& key, int64_t time, uint32_t name, uint32_t payload) {
    PendingLane& lane = chunk.lane(key);
    lane.instants.append(time, name, payload);
    chunk.noteFileOrder(key.kind, lane, true);
}

// The report string for an nsys StringIds id; a dangling id becomes a named placeholder
// and counts `string_id_missing`.
inline uint32_t nameOf(const ReportBuilder& builder, EventChunk& chunk, int64_t nsysId) {
    const uint32_t id = builder.string(nsysId);
    if (id != UINT32_MAX) return id;
    countDiagnostic(chunk.diagnostics, Diag::StringIdMissing);
    return chunk.localString("[unknown name]");
}

}  // namespace lanescope::nsys
