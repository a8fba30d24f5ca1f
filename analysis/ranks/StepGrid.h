#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/ranks/RankCompare.h"

namespace lanescope {

// The ranks of a comparison by their steps, as the Ranks panel's heat map shows them: per rank
// and step number, how long the step took and how long the rank waited inside matched
// collectives during it, with the cells that stand out from their step marked.
//
// A step is matched across ranks by its number (StepRange::number; a rank's repeats of a number
// after the first are left out). A collective counts to the step of its rank during which it
// started: the last step that began at or before its start on that rank's own timeline, and
// for the last step only up to its end (GPU work running behind the CPU counts to the step in
// which it runs). A cell is an outlier when its value exceeds its step's median over the ranks
// that ran the step by more than 3 robust standard deviations, 3 x 1.4826 x the median absolute
// deviation (MAD; 1.4826 x MAD is the standard deviation of normally distributed values), and
// by more than 1% of that step's median step time (ranks a few ns apart are not outliers).
struct StepGrid {
    static constexpr int64_t kNoStep = -1;  // a cell whose rank did not run that step

    std::vector<int64_t> steps;  // the columns: every step number some rank ran, ascending
    size_t ranks = 0;            // the rows, in RankComparison::ranks order
    // The cells, rank-major (at()): step durations and collective waits in ns; step_ns is
    // kNoStep and wait_ns 0 where the rank did not run the step. step_index: into the rank's
    // RankMetrics::steps, -1 where none.
    std::vector<int64_t> step_ns, wait_ns;
    std::vector<int32_t> step_index;
    std::vector<uint8_t> step_outlier, wait_outlier;  // per cell, 1 for an outlier
    // Per column, over the ranks that ran the step (the mean of the middle two of an even count), ns.
    std::vector<int64_t> step_median_ns, wait_median_ns;

    size_t at(size_t rank, size_t column) const { return rank * steps.size() + column; }
};

// O(cells + collectives x ranks x log steps).
StepGrid stepGrid(const RankComparison& comparison);

}  // namespace lanescope
