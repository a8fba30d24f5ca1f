#pragma once
#include "analysis/StatsOptions.h"
#include "analysis/StatsTable.h"
#include "model/Report.h"
#include "model/TimeRange.h"

namespace lanescope {

// cuda_gpu_trace: one row per kernel, memcpy and memset lying wholly inside `range`, sorted by
// start (ns) ascending, merged across streams in O(n log streams). Times in ns, sizes in MB
// (10^6 bytes), throughput in MB/s, as nsys prints them. options.base: kernels' short names.
StatsTable cudaGpuTrace(const Report& report, TimeRange range, const StatsOptions& options = {});

}  // namespace lanescope
