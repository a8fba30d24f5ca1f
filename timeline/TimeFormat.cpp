#include "timeline/TimeFormat.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace lanescope {
namespace {

struct Unit {
    double ns;
    const char* name;
};
const Unit kUnits[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}};

const Unit& unitFor(double ns) {
    for (const Unit& u : kUnits)
        if (std::fabs(ns) >= u.ns) return u;
    return kUnits[3];
}

}  // namespace

std::string formatDuration(int64_t ns, int significant) {
    if (std::llabs(ns) < 1000) return std::to_string(ns) + " ns";
    const Unit& u = unitFor(double(ns));
    const double value = ns / u.ns;
    const int integerDigits = std::fabs(value) >= 100 ? 3 : std::fabs(value) >= 10 ? 2 : 1;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f %s", std::max(0, significant - integerDigits), value, u.name);
    return buf;
}

RulerTicks rulerTicks(int64_t begin_ns, int64_t end_ns, int width_px, int64_t origin_ns, int min_spacing_px) {
    RulerTicks ticks;
    if (width_px <= 0 || end_ns <= begin_ns) return ticks;
    const double nsPerPx = double(end_ns - begin_ns) / width_px;
    const double minStep = std::max(1.0, nsPerPx * min_spacing_px);
    double power = std::pow(10.0, std::floor(std::log10(minStep)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * power >= minStep) {
            power *= m;
            break;
        }
    ticks.step_ns = std::max<int64_t>(1, static_cast<int64_t>(std::llround(power)));
    const int64_t offset = begin_ns - origin_ns;
    int64_t t = begin_ns - ((offset % ticks.step_ns) + ticks.step_ns) % ticks.step_ns;
    if (t < begin_ns) t += ticks.step_ns;
    for (; t <= end_ns; t += ticks.step_ns) ticks.times.push_back(t);
    return ticks;
}

std::string formatTick(int64_t t_ns, int64_t origin_ns, int64_t step_ns) {
    // The unit of the value itself ("33.5 ms", not "33500 µs"), with just enough decimals to
    // tell neighbouring ticks apart.
    const int64_t offset = t_ns - origin_ns;
    const Unit& u = offset == 0 ? unitFor(double(step_ns)) : unitFor(double(offset));
    const double stepInUnit = step_ns / u.ns;
    const int decimals = stepInUnit >= 1 ? 0 : std::min(9, int(std::ceil(-std::log10(stepInUnit) - 1e-9)));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f %s", decimals, offset / u.ns, u.name);
    return buf;
}

}  // namespace lanescope
