#pragma once
#include <cmath>
#include <cstdint>

namespace lanescope {

// Maps report time (ns) to horizontal pixels of a lane area: x = (t - begin_ns) / ns_per_px.
struct PixelMapping {
    int64_t begin_ns = 0;
    double ns_per_px = 1.0;  // > 0
    int width_px = 0;

    static PixelMapping of(int64_t begin_ns, int64_t end_ns, int width_px) {
        return {begin_ns, width_px > 0 ? double(end_ns - begin_ns) / width_px : 1.0, width_px};
    }
    int64_t end_ns() const { return begin_ns + static_cast<int64_t>(std::ceil(ns_per_px * width_px)); }
    double toX(int64_t t) const { return double(t - begin_ns) / ns_per_px; }
    int64_t toTime(double x) const { return begin_ns + static_cast<int64_t>(std::floor(x * ns_per_px)); }
};

}  // namespace lanescope
