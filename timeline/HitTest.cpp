#include "timeline/HitTest.h"

#include <algorithm>

namespace lanescope {

const Box* boxAt(const std::vector<Box>& boxes, int depth, double x, double min_target_px) {
    if (depth < 0 || depth > 255) return nullptr;
    // The boxes of `depth`, then the last one starting at or before x (plus slack).
    const auto [lo, hi] = std::equal_range(boxes.begin(), boxes.end(), depth, [](const auto& a, const auto& b) {
        if constexpr (std::is_same_v<std::decay_t<decltype(a)>, Box>)
            return a.depth < b;
        else
            return a < b.depth;
    });
    const double slack = min_target_px / 2;
    auto it = std::upper_bound(lo, hi, x + slack, [](double v, const Box& b) { return v < b.x0; });
    const Box* best = nullptr;
    double bestDistance = 1e300;
    for (int back = 0; back < 2 && it != lo; ++back) {
        --it;
        const double half = std::max<double>((it->x1 - it->x0) / 2, slack);
        const double centre = (double(it->x0) + it->x1) / 2;
        const double distance = std::abs(x - centre);
        const bool inside = (it->x1 - it->x0 >= min_target_px) ? (x >= it->x0 && x < it->x1) : distance <= half;
        if (inside && distance < bestDistance) {
            best = &*it;
            bestDistance = distance;
        }
    }
    return best;
}

}  // namespace lanescope
