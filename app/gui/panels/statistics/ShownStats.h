#pragma once
#include <cstddef>
#include <optional>
#include <vector>

#include "analysis/StatsOptions.h"
#include "analysis/StatsTable.h"
#include "model/Report.h"
#include "model/TimeRange.h"

namespace lanescope {

// What the Statistics panel computes for one report (no Qt: the benchmark runs it as well). The
// result has a slot per statistics report (analysis/Registry.h), filled for the one `picked` and,
// when `findRows` and that one has no rows, for the other summaries in registry order up to
// the first with rows (traces, which grow with the events, only when picked). On `threads` threads.
// With `wholeReport` (range is the whole report), summaries are read from the report's kept
// results (importers/cache/KeptResults.h) when there, and kept there once computed: a report
// reopened from the cache shows its table without computing it again.
std::vector<std::optional<StatsTable>> computeShownStats(const Report& report, TimeRange range, bool wholeReport,
                                                         size_t picked, bool findRows, const StatsOptions& options,
                                                         unsigned threads = 2);

}  // namespace lanescope
