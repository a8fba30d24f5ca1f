#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "analysis/StatsTable.h"
#include "model/DeferredLane.h"
#include "model/Find.h"
#include "model/Report.h"
#include "model/TimeRange.h"

namespace lanescope {

// One NVTX range projected onto the GPU: the GPU work its CUDA calls launched.
//
// Nsight Systems' definition (`nsys stats -r nvtx_gpu_proj_trace` / `nvtx_gpu_proj_sum`):
// a GPU operation (kernel, memcpy, memset) belongs to every NVTX range, push/pop or
// start/end, of the thread whose CUDA API call launched it (same correlation id, same
// process) when that call lies wholly inside the range (range.start <= call.start and
// call.end <= range.end). Not only the innermost range: all ranges of the stack get it.
struct ProjectedRange {
    EventRef range;            // the NVTX range, in its Nvtx or NvtxStartEnd lane
    int64_t gpu_start_ns = 0;  // start of the first of its GPU operations
    int64_t gpu_end_ns = 0;    // end of the last one (the span, not the union of busy time)
    // Its GPU operations counted as nsys counts them: distinct correlation ids of the
    // launching calls, so a graph launch counts once (equal to the number of operations
    // when every call launches one).
    uint32_t gpu_ops = 0;
    int32_t gpu = -1;  // index into Report::gpus when all its operations ran on one GPU, else -1
    // nsys's stack level, 0 outermost: the number of ancestors of the range among all NVTX
    // ranges of its thread (projected or not), the parent being the shortest other range
    // that contains it (ties: the later one in (start, longer first, lane, index) order).
    int32_t level = 0;
    // Child ranges (ranges whose parent this is) that are themselves projected.
    uint32_t children = 0;
    // The parent range (see level), itself projected as it contains this range; lane
    // UINT32_MAX for an outermost range.
    EventRef parent{UINT32_MAX, UINT32_MAX};
};

// All push/pop and start/end ranges with at least one GPU operation, sorted by
// gpu_start_ns, then longer projection first, then (lane, index). NCCL lane copies are
// skipped (their originals are in the thread's own lanes). O(n log n): a CorrelationIndex,
// binary searches per depth slice of the thread's NVTX lanes for each launching call, and
// one sweep with a Fenwick tree for the parents.
//
// Differences from nsys, from what the model keeps: ranges without an end are dropped by the
// importer (nsys extends them to the last NVTX timestamp), a start/end range ended on another
// thread is kept on its start thread (nsys leaves it out), and GPU work with correlation
// id 0 is never linked (nsys would join it to calls with id 0).
// Uses the report's kept CorrelationIndex (correlationIndex(), built if needed).
std::vector<ProjectedRange> projectNvtxToGpu(const Report& report);
// The same ranges thread by thread, without sorting or holding them all: onThread is called
// once per thread with ranges projected, in thread order, with that thread's projections (in
// no set order). `workers` threads are projected at once; memory beyond the report's
// CorrelationIndex is that of the `workers` largest threads' ranges.
void forEachThreadProjection(const Report& report,
                             const std::function<void(const std::vector<ProjectedRange>&)>& onThread,
                             unsigned workers = 1);

// The "NVTX on GPU" lanes a timeline shows, one per process and GPU: each range of the process
// projected onto that GPU as an NVTX event spanning its GPU work there (name and colour of the
// range; a range whose work ran on several GPUs, a process driving two, is on the lane of each).
// Not added by the importers, so the command line and statistics do not pay for them.
//
// The viewer's import adds them deferred (model/DeferredLane.h), empty, without projecting: one
// per process with NVTX ranges and CUDA calls on a thread and GPU it ran work on, in
// (process, GPU) order.
void addDeferredNvtxProjectionLanes(Report& report);
// The events of deferred lane `lane` and of its process's other ones (one pass over the
// process's threads projects onto all its GPUs), computed thread by thread, `workers` threads
// at once: each range's GPU span is appended straight to its lane; nothing else is kept beyond
// the `workers` threads in flight. A lane no range projects onto gets an empty one.
std::vector<DeferredLaneEvents> projectDeferredLanes(const Report& report, size_t lane, unsigned workers = 1);
// Freezes a deferred lane's events appended in any order, the i-th with payload i and source
// sources[i]: sorted and nested as every frozen lane, each source moved with its event, and each
// payload then its source's (its row of Report::nvtx). Sources must be events of `report`.
void finishDeferredLane(const Report& report, DeferredLaneEvents& lane);
// The same lanes added whole, at once (what `render` draws): filled, those left
// empty dropped.
void addNvtxProjectionLanes(Report& report, unsigned workers = 1);

// `nsys stats -r nvtx_gpu_proj_sum` of those projections, one row per range label
// ("<domain>:<name>") and style: Range, Style, Total Proj Time (ns), Total Range Time (ns),
// Range Instances, Proj Avg/Med/Min/Max/StdDev (ns), Total GPU Ops, Avg GPU Ops,
// Avg Range Lvl, Avg Num Child. Sorted by total projected time descending (ties by label,
// then style). Statistics as in analysis/Summary.h.
StatsTable nvtxGpuProjSum(const Report& report, const std::vector<ProjectedRange>& projections);

// nvtx_gpu_proj_sum over the ranges lying wholly inside `range` (all of them by default),
// computed thread by thread: it holds a duration per projected range, not the projections.
StatsTable nvtxGpuProjSumInRange(const Report& report, TimeRange range);

}  // namespace lanescope
