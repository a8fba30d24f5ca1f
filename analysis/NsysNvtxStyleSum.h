#pragma once
#include "analysis/StatsTable.h"
#include "model/Report.h"
#include "model/TimeRange.h"

namespace lanescope {

// nvtx_pushpop_sum and nvtx_startend_sum: the NVTX ranges of one style, push/pop or
// start/end, lying wholly inside `range`, one row per "<domain>:<name>", sorted by total
// time (ns) descending.
StatsTable nvtxPushPopSum(const Report& report, TimeRange range);
StatsTable nvtxStartEndSum(const Report& report, TimeRange range);

}  // namespace lanescope
