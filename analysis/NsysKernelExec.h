#pragma once
#include "analysis/StatsOptions.h"
#include "analysis/StatsTable.h"
#include "model/Report.h"
#include "model/TimeRange.h"

namespace lanescope {

// Kernels with the CUDA API calls that launched them (same process and correlation id), both
// lying wholly inside `range`. Times in ns: API (call duration), queue (call end to kernel
// start, NULL when the kernel started first), kernel, total (call start to the later end).
// cuda_kern_exec_trace: one row per kernel, sorted by the call's start ascending (streamed over
// the calls in O(n log lanes)). cuda_kern_exec_sum: per (PID, TID, DevId, API name, kernel
// name), sorted by the rounded average total descending. options.base: kernels' short names.
StatsTable cudaKernExecTrace(const Report& report, TimeRange range, const StatsOptions& options = {});
StatsTable cudaKernExecSum(const Report& report, TimeRange range, const StatsOptions& options = {});

}  // namespace lanescope
