#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace lanescope::nsysrep {

// When the session ran, from the Raw Sampling Data summary: its clock conversions (field 16:
// { repeated 1 { 1 from clock, 2 to clock, 5 offset as decimal text } }, to = from - offset) and
// its stop (field 18). Events are on clock 7 (0 = session start), clock 1 is the profiler's
// session clock, 3 the target's monotonic clock, 9 UTC, 10 the target's local time.
struct SessionTimes {
    // UTC ns since the epoch: -offset(7->1) - offset(1->3) - offset(3->9).
    std::optional<int64_t> start_utc_ns;
    // UTC - local time: offset(9->10), 0 where the report has no such conversion.
    int64_t utc_minus_local_ns = 0;
    // On the session clock (nsys ANALYSIS_DETAILS): the start -offset(7->1), the stop summary
    // field 18, which reports of 2020 (year 2020) floor to 100 us as their start already is.
    std::optional<int64_t> session_clock_start_ns;
    std::optional<int64_t> session_clock_stop_ns;
};

// nsysYear: the year of the nsys version that recorded the report (2020 for "2020.5.1"), 0 if
// unknown. A summary that does not decode gives what was read before the damage.
SessionTimes sessionTimes(std::string_view summary, int nsysYear);

}  // namespace lanescope::nsysrep
