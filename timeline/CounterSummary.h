#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace lanescope {

// A counter's samples summarized for wide views: the max value (as float, as drawn) of each
// block of 16, 256, 4096, ... consecutive samples, so that the max of any run of samples takes
// O(16 x levels) reads instead of one per sample. levels[k] holds the blocks of 16^(k+1)
// samples, in sample order: block b covers samples [b * 16^(k+1), (b + 1) * 16^(k+1)), the last
// one possibly shorter. Also the min and max of all values (the chart's scale).
struct CounterSummary {
    std::vector<std::vector<float>> levels;  // the max of each block
    double min_value = 0, max_value = 0;     // of every sample; 0 when there is none

    // The max of float(value[i]) for i in [begin, end), folded into hi.
    void max(std::span<const double> value, size_t begin, size_t end, float& hi) const;
    size_t memoryBytes() const;
};

CounterSummary buildCounterSummary(std::span<const double> value);

}  // namespace lanescope
