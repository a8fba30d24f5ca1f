#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/StatsTable.h"

namespace lanescope {

// The report options of `nsys stats -r NAME:opt:opt=value` that Lanescope takes.
struct StatsOptions {
    bool base = false;            // ":base": kernels by their short (base) name
    std::optional<int64_t> rows;  // ":rows=N": at most N rows (the unified memory reports)
    // Trace reports (a row per event): only their first N rows are kept, the others counted in
    // StatsTable::rows_left_out (a viewer shows the first rows of millions).
    std::optional<size_t> trace_rows;
    // Trace reports: each row is handed here as it is made, in the report's order, with the
    // table (its name and header, no rows), and not kept (a trace of millions of events written
    // out without holding it).
    std::function<void(const StatsTable& table, std::vector<StatsTable::Cell>&& row)> on_trace_row;
};

// Parses the options after a report's name ("base", "rows=10") into `options`, accepting only
// those in `accepted` (comma-separated, e.g. "base,mangled"). Returns an error message, or
// empty when all were understood.
std::string parseStatsOption(std::string_view option, std::string_view accepted, StatsOptions& options);

}  // namespace lanescope
