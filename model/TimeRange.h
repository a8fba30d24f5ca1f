#pragma once
#include <cstdint>
#include <limits>

namespace lanescope {

// A half-open time interval [begin_ns, end_ns) on a report's timeline, in nanoseconds.
struct TimeRange {
    int64_t begin_ns = std::numeric_limits<int64_t>::min();
    int64_t end_ns = std::numeric_limits<int64_t>::max();

    static TimeRange all() { return {}; }
    // Statistics count an event when it lies wholly inside the range.
    bool contains(int64_t start, int64_t end) const { return start >= begin_ns && end <= end_ns; }
};

}  // namespace lanescope
