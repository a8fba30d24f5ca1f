#pragma once
#include "analysis/StatsOptions.h"
#include "analysis/StatsTable.h"
#include "model/Report.h"
#include "model/TimeRange.h"

namespace lanescope {

// nvtx_pushpop_trace: one row per push/pop range lying wholly inside `range`, sorted by start
// (ns) ascending: start, end, duration, the durations of its child ranges and the rest (ns),
// "<domain>:<name>", PID, TID, level (0 outermost), number of children, RangeId, ParentId,
// RangeStack (":id:id..." from the outermost) and the name indented by "--" per level. The
// nesting is that of the thread's push/pop stack, taken from the whole report.
StatsTable nvtxPushPopTrace(const Report& report, TimeRange range, const StatsOptions& options = {});

// nvtx_gpu_proj_trace: one row per NVTX range (push/pop or start/end) lying wholly inside
// `range` that launched GPU work (analysis/NvtxProjection.h), in RangeId order (the ranges'
// start on the CPU): projected start and duration, the range's own start and duration (ns),
// style, PID, TID, GPU operations, level, projected children, RangeId, ParentId, RangeStack.
StatsTable nvtxGpuProjTrace(const Report& report, TimeRange range, const StatsOptions& options = {});

}  // namespace lanescope
