#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/Rules.h"
#include "analysis/StatsTable.h"
#include "model/Find.h"
#include "model/Report.h"
#include "model/TimeRange.h"

namespace lanescope {

// GPU gaps with the semantics of `nsys analyze -r gpu_gaps` (Nsight Systems' gpu_gaps rule):
//
// - The GPU operations are the kernels, memcpys and memsets (all streams, all contexts) with
//   a start > 0, grouped by process (nsys: PID) and GPU (CUDA device id). Contexts are not
//   separate groups; the Context ID of a gap is that of the operation whose end opens it.
// - A gap is a time where no operation of the group runs, between the end of one and the start
//   of the next, inside [first start, last end] of the group: the holes of the union of the
//   operations' intervals (two overlapping streams leave a gap only where neither runs).
// - Profiling overhead counts as GPU work: PROFILER_OVERHEAD ranges named "CUDA profiling
//   overhead", "CUDA profiling stop overhead" or "CUDA profiling data flush overhead" of a
//   process, lying strictly inside the group's [first start, last end], fill gaps like an
//   operation would (their Context ID is that of the group's first operation). Other overhead
//   ranges ("TLS allocation", "CUPTI Buffer flush", ...) are ignored, as nsys ignores them.
// - A gap is reported when its duration is strictly greater than gap_ms (nsys: `duration >
//   gap * 1000000`; its help text says "equal to or greater", its SQL does not).
// - Rows are sorted by duration descending, then start ascending, numbered from 1, and the
//   first `rows` are kept (-1: all; 0: none, as SQL's LIMIT 0). nsys's gpu_gaps.py also applies
//   its LIMIT inside the query, before sorting, so with more gaps than rows it may list some
//   shorter ones; Lanescope always lists the longest.
// - With a time range, only gaps lying wholly inside it are kept (TimeRange::contains).
//   nsys's start=/end= keep the operations overlapping [start, end) and look between those,
//   which finds the same gaps except one ending exactly at `end`.
//
// The likely cause of each gap is Lanescope's own rule (nsys has none). It looks at the CPU
// threads of the gap's process during the gap, and an event "covers" a gap by the part of the
// gap it overlaps; "most of the gap" is more than half of it (such an event always contains
// the gap's midpoint, so each check is a binary search per lane and depth):
//   1. NVTX range: on some thread, a push/pop NVTX range covers most of the gap. That
//      thread's innermost such range is named; `nvtx_names` lists the names over all threads,
//      the most covering first. NVTX wins over the rules below because it names the user's
//      own phase (e.g. "data" for a slow data loader).
//   2. Synchronization: a blocking CUDA API call covers most of the gap: a name containing
//      "Synchronize", or a synchronous copy (cudaMemcpy*/cuMemcpy* without "Async"). The most
//      covering one (the outermost on ties) is `blocking_call`.
//   3. Blocking OS call: an OS runtime call (poll, read, pthread_cond_wait, ...) of a thread
//      that launches GPU work (makes CUDA API calls; any thread if none does) covers most of
//      the gap; it is `blocking_call`. Helper threads waiting meanwhile are idle, not a cause.
//   4. Launch bound: some thread that makes CUDA API calls spends most of the gap inside
//      them (its outermost calls, summed), so the GPU waits for launches.
//   5. Otherwise unknown.
enum class GapCause {
    DataLoading /*NVTX range covers the gap*/,
    Synchronization /*a blocking CUDA call*/,
    BlockingOsCall,
    LaunchBound,
    Unknown
};

struct GpuGap {
    int64_t start_ns = 0, duration_ns = 0;
    int32_t process = -1;     // index into Report::processes
    int32_t gpu = -1;         // index into Report::gpus, -1 when the device is unknown
    int64_t device_id = -1;   // CUDA device id (nsys "Device ID")
    int64_t context_id = -1;  // CUDA context id of the operation ending where the gap starts
    GapCause cause = GapCause::Unknown;
    // Innermost NVTX ranges of that process's threads covering most of the gap (string
    // ids, no repeats), most covering first. Filled for DataLoading only.
    std::vector<uint32_t> nvtx_names;
    std::optional<EventRef> blocking_call;  // the CUDA/OS call blamed (Synchronization, BlockingOsCall)
    std::string cause_text;  // one line for people, e.g. "CPU in NVTX range 'data' (covers 99% of the gap)"
};

struct GapOptions {
    double gap_ms = 500;  // report gaps longer than this (nsys gap=, default 500 ms)
    int64_t rows = 50;    // at most this many rows; -1 all (nsys rows=, default 50)
    TimeRange range = TimeRange::all();
    // Whether a CUDA graph traced as a whole (GraphExecution) keeps the GPU busy. nsys 2025.3's
    // gpu_gaps rule leaves graph executions out, so the rule's output keeps false; the GPU gaps
    // panel sets it, or every graph replay would be reported as idle time.
    bool graphs_busy = false;
};

// Gaps sorted as nsys sorts them (duration descending, then start), limited to rows, with their
// causes. With a range, only gaps lying wholly inside it. O((events + gaps) log n): one merge
// of each GPU's streams, then binary searches over the CPU lanes of the gaps kept.
std::vector<GpuGap> findGpuGaps(const Report& report, const GapOptions& options = {});

// Exactly nsys's CSV columns: Row#, Duration (ns), Start (ns), PID, Device ID, Context ID. The
// table is named "gpu_gaps". With no gaps it has no rows; nsys then prints nothing at all (not
// even the header), so print toCsv(table) only when !table.rows.empty().
StatsTable gpuGapsTable(const Report& report, const std::vector<GpuGap>& gaps);

// Short name of a cause for tables: "NVTX range", "synchronization", "blocking OS call",
// "launch bound", "unknown".
const char* gapCauseName(GapCause cause);

// The options of `analyze --rule gpu_gaps:gap=MS:rows=N`. Throws std::invalid_argument for
// another option, a value that is not a number, or a negative gap.
GapOptions gapOptionsFrom(const RuleOptions& options);

// gpu_gaps as a rule: the table of gpuGapsTable and, per row, where the gap is.
RuleResult gpuGapsResult(const Report& report, const RuleOptions& options);

}  // namespace lanescope
