#include "analysis/Summary.h"

#include <algorithm>
#include <cmath>

namespace lanescope {

Summary summarize(std::vector<int64_t>& values) {
    Summary s;
    s.count = values.size();
    if (values.empty()) return s;
    s.min = values[0];
    s.max = values[0];
    long double sum = 0;
    for (int64_t v : values) {
        s.total += v;
        s.min = std::min(s.min, v);
        s.max = std::max(s.max, v);
        sum += v;
    }
    const long double mean = sum / values.size();
    s.mean = static_cast<double>(mean);
    long double squares = 0;
    for (int64_t v : values) squares += (v - mean) * (v - mean);
    s.stddev = values.size() > 1 ? static_cast<double>(std::sqrt(squares / (values.size() - 1))) : 0.0;

    const size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + mid, values.end());
    const int64_t upper = values[mid];
    if (values.size() % 2 == 1) {
        s.median = static_cast<double>(upper);
    } else {
        const int64_t lower = *std::max_element(values.begin(), values.begin() + mid);
        s.median = (static_cast<double>(lower) + static_cast<double>(upper)) / 2.0;
    }
    return s;
}

}  // namespace lanescope
