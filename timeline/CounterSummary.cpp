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
    std::vector<float> level;
    level.reserve((value.size() + kFanOut - 1) / kFanOut);
    for (size_t b = 0; b < value.size(); b += kFanOut) {
        float mx = float(value[b]);
        for (size_t i = b + 1; i < std::min(value.size(), b + kFanOut); ++i) mx = std::max(mx, float(value[i]));
        level.push_back(mx);
    }
    summary.levels.push_back(std::move(level));
    while (summary.levels.back().size() > 1) {
        const size_t below = summary.levels.size() - 1;  // an index: the push below may move the levels
        std::vector<float> next;
        next.reserve((summary.levels[below].size() + kFanOut - 1) / kFanOut);
        for (size_t b = 0; b < summary.levels[below].size(); b += kFanOut) {
            const auto from = summary.levels[below].begin() + long(b);
            next.push_back(*std::max_element(from, from + long(std::min(kFanOut, summary.levels[below].size() - b))));
        }
        summary.levels.push_back(std::move(next));
    }
    return summary;
}

void CounterSummary::max(std::span<const double> value, size_t begin, size_t end, float& hi) const {
    for (size_t i = begin; i < end;) {
        // The largest block that starts at i and ends by `end`: level k blocks of 16^(k+1).
        int k = -1;
        size_t width = 1;
        while (size_t(k + 1) < levels.size() && i % (width * kFanOut) == 0 && i + width * kFanOut <= end) {
            width *= kFanOut;
            ++k;
        }
        hi = std::max(hi, k < 0 ? float(value[i]) : levels[size_t(k)][i / width]);
        i += width;
    }
}

size_t CounterSummary::memoryBytes() const {
    size_t bytes = sizeof(CounterSummary);
    for (const std::vector<float>& level : levels) bytes += level.capacity() * sizeof(float);
    return bytes;
}

}  // namespace lanescope
