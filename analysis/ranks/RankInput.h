#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/ranks/Collectives.h"
#include "analysis/ranks/GpuShares.h"
#include "analysis/ranks/MpiCalls.h"
#include "analysis/ranks/Steps.h"
#include "model/Report.h"

namespace lanescope {

// One report's collectives (NCCL kernels or MPI calls, as Collective describes them) in
// columns, sorted by start_ns (ties by end_ns). Kinds are indexes into kind_names, which lists
// each distinct kind once, in the order first met. Times in ns on the report's own timeline.
struct CollectiveColumns {
    std::vector<std::string> kind_names;
    std::vector<uint16_t> kind;
    std::vector<int32_t> gpu;  // index into the report's gpus; -1 for MPI calls
    std::vector<int64_t> start_ns, end_ns, block_start_ns;
    std::vector<EventRef> ref;  // the kernel or call in the full report

    size_t size() const { return start_ns.size(); }
    bool empty() const { return start_ns.empty(); }
    std::string_view kindName(size_t i) const { return kind_names[kind[i]]; }
    // Appends one; kinds beyond 65,535 distinct names are refused (std::length_error).
    void push_back(const Collective& c);
};

CollectiveColumns toColumns(const std::vector<Collective>& list);

// Everything the rank comparison needs from one report, and nothing else: the seam between a
// full report and a per-rank summary (analysis/ranks/RankSummary.h writes and reads it), so
// that compareRankInputs runs on summaries made where the reports are. Times in ns on the
// report's own timeline.
struct RankInput {
    std::string file_name;         // the report's file name (named in alignment notes)
    std::string source_path;       // the file the report was read from
    std::string label;             // rankLabel: "rank 4", or the file name
    int rank = -1;                 // rankOf
    std::string rank_from;         // rankSource: "recorded", "environment", "distributedInfo", "file name"
    int64_t start_utc_ns = 0;      // session start (0: unknown), for alignment by clock
    std::vector<StepRange> steps;  // findSteps, sorted by start
    GpuShares shares;
    CollectiveColumns nccl;  // ncclCollectives
    CollectiveColumns mpi;   // mpiActivity's collectives
    // mpiActivity's point-to-point calls and unclaimed waits, by call name, sorted.
    std::map<std::string, PointToPointTimes> point_to_point;
};

// Reads it from a report: O(n log n) in the report's events.
RankInput extractRankInput(const Report& report);

// The processes of a report that ran GPU work of their own (kernels, copies or sets on their
// streams), as indexes into Report::processes in order of the lowest CUDA device id each used
// (ties by pid), when there are two or more: the ranks of a job recorded whole, as
// `nsys profile torchrun ...` records them. Empty for a report of one rank.
std::vector<int32_t> rankProcesses(const Report& report);

// One RankInput per rank the report holds: each of rankProcesses(report), read from that
// process's lanes alone, labelled "<process name> [<pid>]" with rank its position in that order
// (rank_from "process"); or the whole report when it holds one.
std::vector<RankInput> extractRanksOf(const Report& report);

}  // namespace lanescope
