#pragma once
#include <cstdint>
#include <vector>

#include "analysis/ranks/RankCompare.h"

namespace lanescope {

// Percentiles of a skew, in ns, by the nearest-rank method (p-th: the value at rank
// ceil(p/100 * count) of the sorted values); all 0 with count 0.
struct SkewPercentiles {
    uint64_t count = 0;
    int64_t p50_ns = 0, p90_ns = 0, p99_ns = 0, max_ns = 0;
};

// One step number as every rank that ran it ran it (docs/analyses.md, "Ranks at a glance").
struct StepSpread {
    int64_t number = 0;                      // the number in the steps' names
    uint32_t ranks = 0;                      // how many ranks have a step of that number
    int slowest = -1;                        // the rank (index into the inputs) whose step took longest
    int fastest = -1;                        // the shortest one's; ties: the first rank
    int64_t slowest_ns = 0, fastest_ns = 0;  // their durations
    int64_t end_skew_ns = 0;                 // the latest minus the earliest aligned end
};

// Many ranks at a glance: per step number run by two ranks or more, sorted by number, and the
// skews over the job. Step-end skew: per such step, the latest minus the earliest end on the
// aligned timeline. Arrival skew: per matched collective with two ranks or more, the last
// minus the first aligned arrival (kernel or call start). O(ranks x steps log) + O(collectives x ranks).
struct RankSpread {
    std::vector<StepSpread> steps;
    SkewPercentiles step_end_skew, arrival_skew;
};

RankSpread rankSpread(const RankComparison& comparison);

// The percentiles of `values` (reordered).
SkewPercentiles skewPercentiles(std::vector<int64_t> values);

}  // namespace lanescope
