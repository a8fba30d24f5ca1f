#pragma once
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "importers/Importer.h"
#include "importers/SqliteDb.h"
#include "importers/WorkerErrors.h"

namespace lanescope::nsys {

struct ScanStatus {
    bool ok = true;
    bool cancelled = false;
    std::string error;  // SQLite's message when !ok
};

// Reads `selectSql` (a "SELECT ... FROM table" without WHERE) in `threads` contiguous rowid
// ranges at once, each on its own read-only connection, calling onRow(stmt, chunk) for every
// row. chunks[k] receives the rows of the k-th range, so chunks in order are the table in
// rowid order. Small tables are read in one range.
template <class Chunk, class OnRow>
ScanStatus scanInChunks(const std::filesystem::path& file, const SqliteDb& db, const std::string& table,
                        const std::string& selectSql, unsigned threads, std::stop_token stop, ProgressSink& progress,
                        std::vector<Chunk>& chunks, OnRow onRow) {
    ScanStatus status;
    int64_t lo = 0, hi = -1;
    {
        // Two subqueries: SQLite looks a lone min() or max() of rowid up, but scans the whole
        // table for both in one SELECT.
        const std::string from = " FROM \"" + table + "\")";
        SqliteStmt range(db, "SELECT (SELECT min(rowid)" + from + ", (SELECT max(rowid)" + from);
        if (range.step() && !range.isNull(0)) {
            lo = range.i64(0);
            hi = range.i64(1);
        } else if (!range.ok()) {
            return {false, false, range.error()};
        }
    }
    // Rowids may lie anywhere in int64 (a damaged file: -2^63 and 2^63-1): the range is
    // measured and split in unsigned arithmetic, as offsets from lo.
    const uint64_t lastOffset = hi >= lo ? static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) : 0;
    const uint64_t span = hi < lo ? 0 : lastOffset == UINT64_MAX ? UINT64_MAX : lastOffset + 1;
    const unsigned parts = span < 200000 ? 1u : std::max(1u, threads);
    progress.progress(table, 0, span);
    chunks.clear();
    chunks.resize(parts);
    std::atomic<uint64_t> rowsDone{0};
    std::vector<ScanStatus> results(parts);
    const uint64_t step = lastOffset / parts + 1;  // step * (parts - 1) <= lastOffset when split
    auto rowidAt = [&](uint64_t offset) { return static_cast<int64_t>(static_cast<uint64_t>(lo) + offset); };

    auto scan = [&](unsigned part) {
        const int64_t first = parts == 1 ? lo : rowidAt(step * part);
        const int64_t last = parts == 1 || part + 1 == parts ? hi : rowidAt(step * (part + 1) - 1);
        std::string openError;
        auto conn = SqliteDb::openReadOnly(file, openError);
        if (!conn) {
            results[part] = {false, false, openError};
            return;
        }
        SqliteStmt stmt(*conn, selectSql + " WHERE rowid BETWEEN ?1 AND ?2");
        if (!stmt.prepared()) {
            results[part] = {false, false, stmt.error()};
            return;
        }
        stmt.bind(1, first);
        stmt.bind(2, last);
        uint64_t n = 0;
        while (stmt.step()) {
            onRow(stmt, chunks[part]);
            if ((++n & 0xFFFF) == 0) {
                if (stop.stop_requested()) {
                    results[part].cancelled = true;
                    return;
                }
                progress.progress(table, rowsDone.fetch_add(0x10000) + 0x10000, span);
            }
        }
        if (!stmt.ok()) results[part] = {false, false, stmt.error()};
    };

    if (parts == 1) {
        scan(0);
    } else {
        WorkerErrors errors;
        {
            std::vector<std::jthread> workers;
            for (unsigned p = 0; p < parts; ++p) workers.emplace_back(errors.guard([&scan, p] { scan(p); }));
        }
        errors.rethrow();
    }
    for (const auto& r : results) {
        if (r.cancelled) status.cancelled = true;
        if (!r.ok && status.ok) status = r;
    }
    return status;
}

}  // namespace lanescope::nsys
