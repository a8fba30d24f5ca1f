#pragma once
#include "analysis/StatsOptions.h"
#include "analysis/StatsTable.h"
#include "model/Report.h"
#include "model/TimeRange.h"

namespace lanescope {

// nvtx_kern_sum: the kernels summarised by the NVTX ranges that launched them. A kernel belongs to
// every NVTX range (push/pop or start/end) of the thread whose CUDA API call launched it (same
// process, same correlation id) that encloses the call, as in analysis/NvtxProjection.h; a kernel
// launched outside every range makes a row with an empty range, and one whose launching call the
// report does not hold a row with empty range, PID and TID (listed first, as nsys's left join
// gives them). One row per (range "<domain>:<name>", style, PID, TID, kernel name): the distinct
// range instances, the kernel instances, and the kernels' total, average, median, minimum, maximum
// and standard deviation of duration (ns). Sorted by range, style, PID and TID ascending, then
// total descending. Only kernels whose launching call and themselves lie wholly inside `range`
// count. options.base: kernels' short names. A report without any NVTX event gives no rows, as
// nsys prints nothing then.
StatsTable nvtxKernSum(const Report& report, TimeRange range, const StatsOptions& options = {});

}  // namespace lanescope
