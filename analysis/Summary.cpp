#include "analysis/Summary.h"

#include <algorithm>
#include <cmath>

namespace lanescope {
namespace {

constexpr int kRadixBits = 16;
constexpr size_t kFewValues = size_t{1} << 14;  // fewer: nth_element is as fast

// The k-th smallest (from 0) of `values`, which all lie in [low, high]. Many values: a radix
// selection, each round counting the candidates in 2^16 buckets of the remaining range and
// keeping those of the bucket holding rank k (two passes without data-dependent branches, where
// nth_element's partitioning mispredicts on every other element). A few: nth_element on them.
// May reorder `values`.
int64_t kthSmallest(std::vector<int64_t>& values, size_t k, int64_t low, int64_t high) {
    std::vector<int64_t> candidates;
    std::vector<int64_t>* from = &values;
    std::vector<uint32_t> counts;
    while (from->size() > kFewValues && low < high) {
        const uint64_t range = uint64_t(high) - uint64_t(low);
        int shift = 0;
        while ((range >> shift) >> kRadixBits) ++shift;
        counts.assign(size_t(range >> shift) + 1, 0);
        for (const int64_t v : *from) ++counts[(uint64_t(v) - uint64_t(low)) >> shift];
        uint64_t bucket = 0;
        while (k >= counts[bucket]) k -= counts[bucket++];
        std::vector<int64_t> kept;
        kept.reserve(counts[bucket]);
        for (const int64_t v : *from)
            if (((uint64_t(v) - uint64_t(low)) >> shift) == bucket) kept.push_back(v);
        // The bucket's values, as offsets from low: [first, first + mask], within the range.
        const uint64_t mask = (uint64_t(1) << shift) - 1, first = bucket << shift;
        const uint64_t last = range - first <= mask ? range : first + mask;
        high = int64_t(uint64_t(low) + last);
        low = int64_t(uint64_t(low) + first);
        candidates = std::move(kept);
        from = &candidates;
    }
    if (low == high) return low;
    std::nth_element(from->begin(), from->begin() + std::ptrdiff_t(k), from->end());
    return (*from)[k];
}

}  // namespace

Summary summarize(std::vector<int64_t>& values) {
    Summary s;
    s.count = values.size();
    if (values.empty()) return s;
    // Integer passes vectorize; the total is exact (as the long double sum it replaces was,
    // below 2^64), and so is the mean computed from it.
    int64_t total = 0, low = values[0], high = values[0];
    for (int64_t v : values) {
        total += v;
        low = std::min(low, v);
        high = std::max(high, v);
    }
    s.total = total;
    s.min = low;
    s.max = high;
    const long double mean = static_cast<long double>(total) / values.size();
    s.mean = static_cast<double>(mean);
    // Squared deviations in four independent sums, so that the long double additions overlap.
    long double squares[4] = {0, 0, 0, 0};
    const size_t n = values.size(), whole = n - n % 4;
    for (size_t i = 0; i < whole; i += 4)
        for (size_t k = 0; k < 4; ++k) {
            const long double d = values[i + k] - mean;
            squares[k] += d * d;
        }
    for (size_t i = whole; i < n; ++i) {
        const long double d = values[i] - mean;
        squares[0] += d * d;
    }
    const long double sumOfSquares = (squares[0] + squares[1]) + (squares[2] + squares[3]);
    s.stddev = n > 1 ? static_cast<double>(std::sqrt(sumOfSquares / (n - 1))) : 0.0;

    const size_t mid = n / 2;
    const int64_t upper = kthSmallest(values, mid, low, high);
    if (n % 2 == 1) {
        s.median = static_cast<double>(upper);
    } else {
        const int64_t lower = kthSmallest(values, mid - 1, low, high);
        s.median = (static_cast<double>(lower) + static_cast<double>(upper)) / 2.0;
    }
    return s;
}

}  // namespace lanescope
