#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/Report.h"

namespace lanescope::cli {

// What `lanescope-cli info` says of a report, shared by its JSON and table forms and by the
// Python module's Report.info().

// "2025-03-01T12:00:00.000000000Z" for UTC nanoseconds since the epoch; "unknown" for 0.
std::string utcText(int64_t ns);
// The event counts under their JSON names, in the order `info` lists them.
std::vector<std::pair<const char*, uint64_t>> countList(const EventCounts& c);
// `lanescope-cli info --format json` (CLI.md names its keys).
std::string infoJson(const Report& r);

}  // namespace lanescope::cli
