#include "analysis/ranks/StepGrid.h"

#include <algorithm>
#include <limits>

namespace lanescope {
namespace {

// The median of `values` (the mean of the two middle ones of an even count, rounded down),
// reordering them; 0 when empty.
int64_t medianOf(std::vector<int64_t>& values) {
    if (values.empty()) return 0;
    const auto upper = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), upper, values.end());
    if (values.size() % 2) return *upper;
    const int64_t lower = *std::max_element(values.begin(), upper);
    return lower + (*upper - lower) / 2;
}

// The values of `column`'s cells whose rank ran the step.
std::vector<int64_t> columnValues(const StepGrid& grid, size_t column, const std::vector<int64_t>& value) {
    std::vector<int64_t> values;
    values.reserve(grid.ranks);
    for (size_t r = 0; r < grid.ranks; ++r)
        if (grid.step_ns[grid.at(r, column)] != StepGrid::kNoStep) values.push_back(value[grid.at(r, column)]);
    return values;
}

// Marks the cells of `column` whose value exceeds the column's median by more than 3 robust
// standard deviations (1.4826 x the median absolute deviation) and by more than `floor_ns`;
// returns the median.
int64_t markOutliers(const StepGrid& grid, size_t column, const std::vector<int64_t>& value, int64_t floor_ns,
                     std::vector<uint8_t>& outlier) {
    std::vector<int64_t> values = columnValues(grid, column, value);
    const int64_t median = medianOf(values);
    for (int64_t& v : values) v = v > median ? v - median : median - v;
    const double spread = 3 * 1.4826 * double(medianOf(values));
    for (size_t r = 0; r < grid.ranks; ++r) {
        const size_t cell = grid.at(r, column);
        if (grid.step_ns[cell] == StepGrid::kNoStep) continue;
        const int64_t excess = value[cell] - median;
        outlier[cell] = double(excess) > spread && excess > floor_ns ? 1 : 0;
    }
    return median;
}

}  // namespace

StepGrid stepGrid(const RankComparison& comparison) {
    StepGrid grid;
    const std::vector<RankMetrics>& ranks = comparison.ranks;
    grid.ranks = ranks.size();
    for (const RankMetrics& m : ranks)
        for (const StepRange& s : m.steps) grid.steps.push_back(s.number);
    std::sort(grid.steps.begin(), grid.steps.end());
    grid.steps.erase(std::unique(grid.steps.begin(), grid.steps.end()), grid.steps.end());
    const size_t columns = grid.steps.size(), cells = grid.ranks * columns;
    grid.step_ns.assign(cells, StepGrid::kNoStep);
    grid.wait_ns.assign(cells, 0);
    grid.step_index.assign(cells, -1);
    grid.step_outlier.assign(cells, 0);
    grid.wait_outlier.assign(cells, 0);

    // Per rank, the column of each of its steps (-1 for a repeated number).
    std::vector<std::vector<int32_t>> columnOf(grid.ranks);
    for (size_t r = 0; r < grid.ranks; ++r) {
        const std::vector<StepRange>& steps = ranks[r].steps;
        columnOf[r].assign(steps.size(), -1);
        for (size_t s = 0; s < steps.size(); ++s) {
            const auto c =
                size_t(std::lower_bound(grid.steps.begin(), grid.steps.end(), steps[s].number) - grid.steps.begin());
            const size_t cell = grid.at(r, c);
            if (grid.step_index[cell] >= 0) continue;
            grid.step_index[cell] = static_cast<int32_t>(s);
            grid.step_ns[cell] = steps[s].end_ns - steps[s].start_ns;
            columnOf[r][s] = static_cast<int32_t>(c);
        }
    }

    constexpr int64_t kMissing = std::numeric_limits<int64_t>::min();
    for (const MatchedCollective& mc : comparison.collectives) {
        if (mc.present < 2) continue;
        for (size_t r = 0; r < grid.ranks && r < mc.arrival_ns.size(); ++r) {
            if (mc.arrival_ns[r] == kMissing || mc.wait_ns[r] <= 0) continue;
            const std::vector<StepRange>& steps = ranks[r].steps;
            const int64_t start = mc.arrival_ns[r] - ranks[r].offset_ns;  // on the rank's own timeline
            auto after = std::upper_bound(steps.begin(), steps.end(), start,
                                          [](int64_t t, const StepRange& s) { return t < s.start_ns; });
            if (after == steps.begin()) continue;
            const auto s = size_t(after - steps.begin()) - 1;
            if (after == steps.end() && start > steps[s].end_ns) continue;
            if (columnOf[r][s] >= 0) grid.wait_ns[grid.at(r, size_t(columnOf[r][s]))] += mc.wait_ns[r];
        }
    }

    grid.step_median_ns.resize(columns);
    grid.wait_median_ns.resize(columns);
    for (size_t c = 0; c < columns; ++c) {
        std::vector<int64_t> durations = columnValues(grid, c, grid.step_ns);
        const int64_t floor = medianOf(durations) / 100;  // 1% of the step's median step time
        grid.step_median_ns[c] = markOutliers(grid, c, grid.step_ns, floor, grid.step_outlier);
        grid.wait_median_ns[c] = markOutliers(grid, c, grid.wait_ns, floor, grid.wait_outlier);
    }
    return grid;
}

}  // namespace lanescope
