#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace lanescope::nsysrep {

// The session's start in UTC nanoseconds since the epoch, from the clock conversions of the
// Raw Sampling Data summary (field 16: { repeated 1 { 1 from clock, 2 to clock, 5 offset as
// decimal text } }, to = from - offset). Events are on clock 7 (0 = session start), clock 1 is
// the profiler's session clock, 3 the target's monotonic clock, 9 UTC:
// utc = -offset(7->1) - offset(1->3) - offset(3->9). nullopt when a conversion is missing.
std::optional<int64_t> sessionStartUtc(std::string_view summary);

}  // namespace lanescope::nsysrep
