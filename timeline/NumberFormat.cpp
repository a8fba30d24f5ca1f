#include "timeline/NumberFormat.h"

#include <array>
#include <cmath>
#include <cstdio>

namespace lanescope {

std::string formatCounterValue(double value) {
    static constexpr std::array<const char*, 5> kPrefixes = {"k", "M", "G", "T", "P"};
    char text[32];
    double scaled = value;
    int prefix = -1;
    while (std::fabs(scaled) >= (prefix < 0 ? 1e4 : 1e3) && prefix + 1 < int(kPrefixes.size())) {
        scaled /= 1e3;
        ++prefix;
    }
    if (prefix < 0) {
        std::snprintf(text, sizeof text, "%.4g", value);
        return text;
    }
    // Rounding to 4 digits can reach the next prefix's 1000 ("999.96 k"): print it as 1 M then.
    if (std::fabs(scaled) >= 999.95 && prefix + 1 < int(kPrefixes.size())) {
        scaled /= 1e3;
        ++prefix;
    }
    std::snprintf(text, sizeof text, "%.4g %s", scaled, kPrefixes[size_t(prefix)]);
    return text;
}

}  // namespace lanescope
