#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lanescope {

// The report options of `nsys stats -r NAME:opt:opt=value` that Lanescope takes.
struct StatsOptions {
    bool base = false;            // ":base": kernels by their short (base) name
    std::optional<int64_t> rows;  // ":rows=N": at most N rows (the unified memory reports)
};

// Parses the options after a report's name ("base", "rows=10") into `options`, accepting only
// those in `accepted` (comma-separated, e.g. "base,mangled"). Returns an error message, or
// empty when all were understood.
std::string parseStatsOption(std::string_view option, std::string_view accepted, StatsOptions& options);

}  // namespace lanescope
