#pragma once
#include <cstdint>
#include <vector>

#include "analysis/Rules.h"
#include "analysis/StatsTable.h"
#include "model/Report.h"

namespace lanescope {

// gpu_time_util with the semantics of `nsys analyze -r gpu_time_util` (Nsight Systems'
// "GPU Time Utilization" rule), verified against nsys 2025.3 on the corpus and nsys 2022.4
// (same SQL) with other options and edited reports (tests/analysis/RulesTest.cpp), and on
// hand-built reports (tests/analysis/GpuUtilizationTest.cpp):
//
// - The GPU operations are the kernels, memcpys and memsets with a start > 0 (after the
//   start=/end=/nvtx= filtering of analysis/Rules.h), grouped by process (PID) and CUDA
//   device id; streams and contexts are not separate groups.
// - Profiling overhead counts as GPU work: Report::profiler_overhead ranges named "CUDA
//   profiling overhead", "CUDA profiling stop overhead" or "CUDA profiling data flush
//   overhead" of the group's process, lying strictly inside the group's span (nsys's
//   gpustats; the other overhead names, as in the corpus, are ignored). They are filtered by
//   start=/end=/nvtx= like the operations; with nvtx= on a non-main thread nsys would keep
//   only that thread's overhead, but the model records no thread for overhead, so the
//   process's is kept.
// - A group's span runs from its first operation's start to its last operation's end. It is
//   cut into `chunks` chunks (option chunks=, default 30, 0..1000) of ceil(span / chunks) ns
//   (as SQLite computes it, in double); the last chunk ends at the span's end, and chunks
//   starting at or after it are dropped (so there may be fewer).
// - A chunk's in-use percentage is the SUM of the parts of the operations inside it, over
//   its length, times 100: concurrent operations add up and may exceed 100% (nsys: "time"
//   utilization). Chunks below the threshold (option threshold=, integer percent, default
//   50, strict <) are kept.
// - Runs of consecutive kept chunks of a group become one row: Start is the first chunk's
//   start, Duration the run's length, In-Use (%) the length-weighted mean of the chunks'
//   percentages rounded to 1 decimal (SQLite round(): the exact binary value, half away
//   from zero).
// - Rows: runs ordered by (nsys's groupId: a run's first chunk index minus the number of
//   kept chunks of its group before it, then device id, then pid), cut to `rows`, sorted by
//   (rounded In-Use, Duration) ascending, ties keeping that order, and numbered from 1.
//   Columns: Row#, In-Use (%), Duration (ns), Start (ns), PID, Device ID, Context ID.
// - Context ID is that of the group's operation with the latest end (the first such in nsys's
//   table order: kernels, memcpys, memsets, each by start): nsys selects it as a bare column
//   next to min(start) and max(end), and SQLite takes it from the max(end) row (checked with
//   nsys 2022.4 on reports edited to use two contexts).
//
// Throws std::invalid_argument for bad options (see analysis/Rules.h).
StatsTable gpuTimeUtil(const Report& report, const RuleOptions& options = {});
// With findings: each row's time region, process and GPU (no event).
RuleResult gpuTimeUtilResult(const Report& report, const RuleOptions& options = {});

// For the GUI chart: the busy fraction of one GPU (index into Report::gpus; all processes,
// all streams) in `chunks` equal chunks of [begin_ns, end_ns). busy_fraction[i] is the part
// of chunk i during which at least one kernel, memcpy or memset runs: the union of their
// intervals, so two overlapping operations on different streams count once, and it lies in
// [0, 1] (unlike gpu_time_util's sum). chunk_ns = ceil((end - begin) / chunks); the last chunk
// is clipped to end_ns and its fraction is over its clipped length; chunks starting at or
// after end_ns are left out, so there may be fewer than `chunks`. Empty (chunk_ns 0) when
// end_ns <= begin_ns, chunks <= 0 or the GPU index is invalid. NCCL lane copies are not
// counted twice. CUDA graph executions traced as a whole count as busy (gpu_time_util leaves
// them out, as nsys). O(events in range x log(lane depths) + chunks), merging the lanes' depths
// by start without copying the events.
struct UtilizationSeries {
    int64_t begin_ns = 0, chunk_ns = 0;
    std::vector<double> busy_fraction;
};
UtilizationSeries gpuUtilization(const Report& report, int32_t gpu, int64_t begin_ns, int64_t end_ns, int chunks);

}  // namespace lanescope
