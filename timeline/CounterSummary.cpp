#include "timeline/CounterSummary.h"

#include <algorithm>

namespace lanescope {
namespace {
constexpr size_t kFanOut = 16;
}

CounterSummary buildCounterSummary(std::span<const double> value) {
    CounterSummary summary;
    if (value.empty()) return summary;
    const auto [lo, hi] = std::minmax_element(value.begin(), value.end());
    summary.min_value = *lo;
    summary.max_value = *hi;
    // Level 0 from the samples, each next level from the one below, until one block is left.
    CounterSummary::Level level;
    for (size_t b = 0; b < value.size(); b += kFanOut) {
        float mn = float(value[b]), mx = mn;
        for (size_t i = b + 1; i < std::min(value.size(), b + kFanOut); ++i) {
            mn = std::min(mn, float(value[i]));
            mx = std::max(mx, float(value[i]));
        }
        level.min.push_back(mn);
        level.max.push_back(mx);
    }
    summary.levels.push_back(std::move(level));
    while (summary.levels.back().min.size() > 1) {
        const CounterSummary::Level& below = summary.levels.back();
        CounterSummary::Level next;
        for (size_t b = 0; b < below.min.size(); b += kFanOut) {
            const size_t e = std::min(below.min.size(), b + kFanOut);
            next.min.push_back(*std::min_element(below.min.begin() + long(b), below.min.begin() + long(e)));
            next.max.push_back(*std::max_element(below.max.begin() + long(b), below.max.begin() + long(e)));
        }
        summary.levels.push_back(std::move(next));
    }
    return summary;
}

void CounterSummary::minMax(std::span<const double> value, size_t begin, size_t end, float& lo, float& hi) const {
    for (size_t i = begin; i < end;) {
        // The largest block that starts at i and ends by `end`: level k blocks of 16^(k+1).
        int k = -1;
        size_t width = 1;
        while (size_t(k + 1) < levels.size() && i % (width * kFanOut) == 0 && i + width * kFanOut <= end) {
            width *= kFanOut;
            ++k;
        }
        if (k < 0) {
            lo = std::min(lo, float(value[i]));
            hi = std::max(hi, float(value[i]));
        } else {
            lo = std::min(lo, levels[size_t(k)].min[i / width]);
            hi = std::max(hi, levels[size_t(k)].max[i / width]);
        }
        i += width;
    }
}

size_t CounterSummary::memoryBytes() const {
    size_t bytes = sizeof(CounterSummary);
    for (const Level& level : levels) bytes += (level.min.capacity() + level.max.capacity()) * sizeof(float);
    return bytes;
}

}  // namespace lanescope
