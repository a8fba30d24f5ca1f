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

std::string formatBytes(int64_t bytes) {
    static constexpr std::array<const char*, 6> kUnits = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double scaled = double(bytes);
    size_t unit = 0;
    // Up a unit from 1024, or where rounding to 4 digits would print 1024 ("1023.97 KiB").
    while (std::fabs(scaled) >= 1023.95 && unit + 1 < kUnits.size()) {
        scaled /= 1024.0;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.4g %s", scaled, kUnits[unit]);
    return text;
}

}  // namespace lanescope
