#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "analysis/StatsTable.h"

namespace lanescope {

// A statistics table as bytes, to keep between runs (the report cache's results): a format
// tag, the name, the header, rows_left_out, then each row's cells, each a type tag and its
// value (int64; double with its decimals and rounding; text as length and UTF-8). Integers are
// little-endian; lengths and counts are 32 bits, rows_left_out and the row count 64.
std::string encodeStatsTable(const StatsTable& table);
// The table encodeStatsTable wrote, or nullopt for bytes it did not write (a wrong tag, a
// length past the end, bytes left over): never reads outside `bytes`.
std::optional<StatsTable> decodeStatsTable(std::string_view bytes);

}  // namespace lanescope
