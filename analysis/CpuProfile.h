#pragma once
#include <cstdint>
#include <vector>

#include "analysis/StatsTable.h"
#include "model/Report.h"
#include "model/TimeRange.h"

namespace lanescope {

// What a CPU profile counts: the samples at times in `range` ([begin, end)), of the threads
// whose OS thread id is in `tids` and whose process id is in `pids` (an empty list: all).
// Definitions of every view: docs/analyses.md, "CPU profile".
struct SampleSelection {
    TimeRange range = TimeRange::all();
    std::vector<int64_t> tids;
    std::vector<int64_t> pids;
};

// The selected samples counted per call stack: self[node] = samples whose stack is `node`
// (its innermost frame), indexed like Report::stacks' nodes.
struct StackCounts {
    std::vector<uint32_t> self;
    uint64_t samples = 0;        // all selected samples, with or without a stack
    uint64_t without_stack = 0;  // of them, those with no call stack
};
StackCounts countSamples(const Report& report, const SampleSelection& selection);

// One function (a frame of Report::stacks: function and module) of the flat view. Sorted by
// self descending, then total descending, then function name, then module.
struct FlatProfileRow {
    uint32_t frame = 0;
    uint64_t self = 0;   // samples whose innermost frame it is
    uint64_t total = 0;  // samples with it anywhere in their stack, each sample once
};
std::vector<FlatProfileRow> flatProfile(const Report& report, const StackCounts& counts);

// One node of a call tree, in depth-first order (children by total descending, then function
// name, then module). Top-down: depth 0 = outermost frames, a node's children the functions it called.
// Bottom-up: depth 0 = innermost frames (the functions the samples were in), a node's
// children its callers. self: samples whose stack ends at this node (top-down); the samples
// of depth-0 nodes (bottom-up, where self = total there and 0 below).
struct CallTreeRow {
    uint32_t depth = 0;
    uint32_t frame = 0;
    uint64_t self = 0;
    uint64_t total = 0;  // samples through this node
};
std::vector<CallTreeRow> topDownTree(const Report& report, const StackCounts& counts);
std::vector<CallTreeRow> bottomUpTree(const Report& report, const StackCounts& counts);

// The selected samples of one CpuSamples lane: the lane's index in Report::lanes and the
// indexes of its instants, ascending (so also in time order).
struct LaneSamples {
    uint32_t lane = 0;
    std::vector<uint32_t> instants;
};
// The selected samples whose stack holds `frame` anywhere (each sample once), lanes in
// Report::lanes order. Their number is flatProfile's Total of that frame.
std::vector<LaneSamples> samplesWithFrame(const Report& report, const SampleSelection& selection, uint32_t frame);

// One thread's CPU activity in the selection's range: samples, time running on a core (its
// running intervals clipped to the range) and switch-ins (running intervals starting in the
// range). Threads with samples or context switches; sorted by running time descending, then
// samples descending, then thread index.
struct ThreadActivityRow {
    int32_t thread = -1;  // index into Report::threads
    uint64_t samples = 0;
    int64_t running_ns = 0;
    uint64_t switches = 0;
};
std::vector<ThreadActivityRow> threadActivity(const Report& report, const SampleSelection& selection);

// The views as tables, with the columns of CLI.md's `profile` command.
StatsTable flatProfileTable(const Report& report, const StackCounts& counts);
StatsTable callTreeTable(const Report& report, const StackCounts& counts, const std::vector<CallTreeRow>& rows,
                         const char* name);
StatsTable threadActivityTable(const Report& report, const std::vector<ThreadActivityRow>& rows);

}  // namespace lanescope
