#pragma once
#include <cstdint>
#include <vector>

namespace lanescope {

// Summary of a sample of integer values (durations in ns, sizes in bytes), with the
// definitions `nsys stats` uses: median averages the two middle values of an even count,
// standard deviation is the sample one (n - 1), 0 for a single value.
struct Summary {
    uint64_t count = 0;
    int64_t total = 0;
    double mean = 0;
    double median = 0;
    int64_t min = 0;
    int64_t max = 0;
    double stddev = 0;
};

// Reorders `values` (partial sort for the median). Empty input gives an all-zero Summary.
// Values in 32 bits (most durations and sizes) take half the memory of millions of them.
Summary summarize(std::vector<int64_t>& values);
Summary summarize(std::vector<uint32_t>& values);

}  // namespace lanescope
