#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace lanescope {

// "850 ns", "12.35 µs", "3.100 ms", "1.25 s": a duration with a unit that suits it.
std::string formatDuration(int64_t ns, int significant = 4);

// Ruler ticks: a step of 1, 2 or 5 times a power of ten (ns) so that ticks are at least
// min_spacing_px apart, and the tick times within [begin, end] that lie a whole number of
// steps from origin_ns (so labels relative to the origin are round).
struct RulerTicks {
    int64_t step_ns = 1;
    std::vector<int64_t> times;
};
RulerTicks rulerTicks(int64_t begin_ns, int64_t end_ns, int width_px, int64_t origin_ns = 0, int min_spacing_px = 90);
// A tick label relative to `origin_ns`, with the unit of the step: "120 ms", "3.5 µs".
std::string formatTick(int64_t t_ns, int64_t origin_ns, int64_t step_ns);

}  // namespace lanescope
