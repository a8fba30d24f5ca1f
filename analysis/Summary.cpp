#include "analysis/Summary.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>
#include <utility>

namespace lanescope {
namespace {

constexpr int kRadixBits = 16;
constexpr size_t kFewValues = size_t{1} << 14;  // fewer: nth_element is as fast

// Values in [low, high] counted in at most 2^16 buckets of 2^shift values each, as offsets from
// low: the radix of a selection, where nth_element's partitioning mispredicts a branch on
// every other element of millions of durations.
struct Buckets {
    int64_t low = 0, high = 0;
    int shift = 0;
    std::vector<uint32_t> counts;

    Buckets(int64_t lowest, int64_t highest) : low(lowest), high(highest) {
        const uint64_t range = uint64_t(high) - uint64_t(low);
        while ((range >> shift) >> kRadixBits) ++shift;
        counts.assign(size_t(range >> shift) + 1, 0);
    }
    uint64_t of(int64_t v) const { return (uint64_t(v) - uint64_t(low)) >> shift; }
    void count(int64_t v) { ++counts[of(v)]; }
    // The bucket holding rank k, and k's rank within it.
    std::pair<uint64_t, size_t> find(size_t k) const {
        uint64_t b = 0;
        while (k >= counts[b]) k -= counts[b++];
        return {b, k};
    }
    // The bounds of bucket b's values: [first, last].
    std::pair<int64_t, int64_t> bounds(uint64_t b) const {
        const uint64_t range = uint64_t(high) - uint64_t(low), mask = (uint64_t(1) << shift) - 1, first = b << shift;
        const uint64_t last = range - first <= mask ? range : first + mask;
        return {int64_t(uint64_t(low) + first), int64_t(uint64_t(low) + last)};
    }
    template <typename V>
    std::vector<V> gather(const std::vector<V>& values, uint64_t b) const {
        std::vector<V> kept;
        kept.reserve(counts[b]);
        for (const V v : values)
            if (of(int64_t(v)) == b) kept.push_back(v);
        return kept;
    }
};

// The k-th smallest (from 0) of `values`, which all lie in [low, high]: radix rounds while
// many, nth_element on a few. May reorder `values`.
template <typename V>
int64_t kthSmallest(std::vector<V>& values, size_t k, int64_t low, int64_t high) {
    std::vector<V> candidates;
    std::vector<V>* from = &values;
    while (from->size() > kFewValues && low < high) {
        Buckets buckets(low, high);
        for (const V v : *from) buckets.count(int64_t(v));
        const auto [b, rank] = buckets.find(k);
        candidates = buckets.gather(*from, b);
        from = &candidates;
        k = rank;
        std::tie(low, high) = buckets.bounds(b);
    }
    if (low == high) return low;
    std::nth_element(from->begin(), from->begin() + std::ptrdiff_t(k), from->end());
    return int64_t((*from)[k]);
}

// The median of many values from their bucket counts: one more pass over them.
template <typename V>
double medianOf(std::vector<V>& values, const Buckets& buckets) {
    const size_t n = values.size(), mid = n / 2;
    const auto [upperBucket, upperRank] = buckets.find(mid);
    if (n % 2 == 1 || upperRank > 0) {  // both middle values (or the one) in one bucket
        std::vector<V> kept = buckets.gather(values, upperBucket);
        const auto [first, last] = buckets.bounds(upperBucket);
        const int64_t upper = kthSmallest(kept, upperRank, first, last);
        if (n % 2 == 1) return double(upper);
        const int64_t lower = kthSmallest(kept, upperRank - 1, first, last);
        return (double(lower) + double(upper)) / 2.0;
    }
    // The upper middle value opens its bucket: the lower one closes an earlier bucket.
    const uint64_t lowerBucket = buckets.find(mid - 1).first;
    int64_t lower = INT64_MIN, upper = INT64_MAX;
    for (const V value : values) {
        const auto v = int64_t(value);
        const uint64_t b = buckets.of(v);
        if (b == lowerBucket) lower = std::max(lower, v);
        if (b == upperBucket) upper = std::min(upper, v);
    }
    return (double(lower) + double(upper)) / 2.0;
}

template <typename V>
Summary summarizeValues(std::vector<V>& values) {
    Summary s;
    s.count = values.size();
    if (values.empty()) return s;
    // Integer passes vectorize; the total is exact (as the long double sum it replaces was,
    // below 2^64), and so is the mean computed from it.
    int64_t total = 0, low = int64_t(values[0]), high = int64_t(values[0]);
    for (const V value : values) {
        const auto v = int64_t(value);
        total += v;
        low = std::min(low, v);
        high = std::max(high, v);
    }
    s.total = total;
    s.min = low;
    s.max = high;
    const long double mean = static_cast<long double>(total) / values.size();
    s.mean = static_cast<double>(mean);

    // Squared deviations in four independent sums, so that the long double additions overlap;
    // many values are counted into buckets for the median in the same pass.
    const size_t n = values.size(), whole = n - n % 4;
    const bool many = n > kFewValues && low < high;
    std::optional<Buckets> buckets;
    if (many) buckets.emplace(low, high);
    long double squares[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < whole; i += 4)
        for (size_t k = 0; k < 4; ++k) {
            const long double d = int64_t(values[i + k]) - mean;
            squares[k] += d * d;
            if (many) buckets->count(int64_t(values[i + k]));
        }
    for (size_t i = whole; i < n; ++i) {
        const long double d = int64_t(values[i]) - mean;
        squares[0] += d * d;
        if (many) buckets->count(int64_t(values[i]));
    }
    const long double sumOfSquares = (squares[0] + squares[1]) + (squares[2] + squares[3]);
    s.stddev = n > 1 ? static_cast<double>(std::sqrt(sumOfSquares / (n - 1))) : 0.0;

    if (many) {
        s.median = medianOf(values, *buckets);
    } else {
        const size_t mid = n / 2;
        const int64_t upper = kthSmallest(values, mid, low, high);
        const int64_t lower =
            n % 2 == 1 ? upper : *std::max_element(values.begin(), values.begin() + std::ptrdiff_t(mid));
        s.median = (static_cast<double>(lower) + static_cast<double>(upper)) / 2.0;
    }
    return s;
}

}  // namespace

Summary summarize(std::vector<int64_t>& values) { return summarizeValues(values); }
Summary summarize(std::vector<uint32_t>& values) { return summarizeValues(values); }

}  // namespace lanescope
