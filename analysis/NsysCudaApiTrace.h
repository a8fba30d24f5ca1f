#pragma once
#include "analysis/StatsOptions.h"
#include "analysis/StatsTable.h"
#include "model/Report.h"
#include "model/TimeRange.h"

namespace lanescope {

// cuda_api_trace: one row per CUDA runtime and driver API call lying wholly inside `range`,
// sorted by start (ns) ascending, merged across threads in O(n log lanes): start and duration
// (ns), the name as the summaries show it (apiDisplayName), result code, correlation id, PID, TID, the
// thread's priority and name (both empty for a thread without a recorded priority: nsys has
// no ThreadNames row for it).
StatsTable cudaApiTrace(const Report& report, TimeRange range, const StatsOptions& options = {});

}  // namespace lanescope
