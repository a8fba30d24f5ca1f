#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analysis/Summary.h"
#include "analysis/ranks/Collectives.h"
#include "analysis/ranks/GpuShares.h"
#include "analysis/ranks/MpiCalls.h"
#include "analysis/ranks/RankAlignment.h"
#include "analysis/ranks/RankInput.h"
#include "analysis/ranks/Steps.h"
#include "model/Report.h"

namespace lanescope {

// Per collective kind on one rank: its kernels (MPI: calls) and the time they spent waiting
// for the other ranks to arrive (only collectives matched on at least two ranks count as
// waiting). Times in ns.
struct CollectiveKindTimes {
    uint32_t count = 0;
    int64_t kernel_ns = 0;  // summed durations: NCCL kernels, or MPI calls (nonblocking: to their wait's end)
    int64_t wait_ns = 0;
};

struct RankMetrics {
    std::string label;
    int rank = -1;
    int64_t offset_ns = 0;         // where the alignment put it (RankAlignment::offsets_ns)
    std::vector<StepRange> steps;  // on its own timeline
    Summary step_ns;               // of the step durations
    GpuShares shares;
    std::map<std::string, CollectiveKindTimes> collectives;  // by kind, sorted by name
    int64_t wait_ns = 0;                                     // total time this rank waited inside collectives
    int64_t caused_wait_ns = 0;                              // total time the others waited for this rank
    uint32_t times_last = 0;                                 // collectives in which it arrived last
    // MPI point-to-point calls (and the waits no collective claimed) by call name, sorted; ns.
    std::map<std::string, PointToPointTimes> point_to_point;
    int64_t point_to_point_ns = 0;  // their summed durations: time blocked in point-to-point
};

// One collective matched across ranks (the reference report's collective `ordinal` of `kind`
// and its matches). Times are on the shared, aligned timeline; a rank without a match has
// arrival_ns == end_ns == INT64_MIN and wait 0.
struct MatchedCollective {
    std::string kind;
    uint32_t ordinal = 0;             // k-th of its kind on the reference report, from 0
    std::vector<EventRef> kernels;    // per report; lane == UINT32_MAX where missing
    std::vector<int64_t> arrival_ns;  // kernel start, aligned
    std::vector<int64_t> end_ns;      // kernel end, aligned
    std::vector<int64_t> wait_ns;     // last arrival minus own block start (Collective::block_start_ns), within the
                                      // own kernel or call
    int last = -1;                    // the report that arrived last
    int present = 0;                  // how many reports ran it
};

// The rank the others wait for most. Basis "collectives": the most caused wait in matched
// collectives; "steps": without collectives two ranks ran, the longest mean step; none
// (report -1) when neither exists or the top is a tie.
struct Straggler {
    int report = -1;  // index into the inputs, -1 when none
    std::string basis;
    int64_t caused_wait_ns = 0;  // collectives: the wait it caused
    uint32_t times_last = 0;
    uint32_t collectives = 0;  // matched collectives with two ranks or more
    int64_t excess_ns = 0;     // how much it exceeds the next rank (caused wait or mean step)
};

// Reports of several ranks of one job, compared. Sorted as the inputs.
struct RankComparison {
    RankAlignment alignment;  // its mode is the one used (never Auto)
    // Whose collectives were matched: "nccl" or "mpi" (Nccl and Mpi: their own; Clock and None:
    // NCCL when any report has NCCL collectives, else MPI); "" with no reports.
    std::string collectives_from;
    std::vector<RankMetrics> ranks;
    std::vector<MatchedCollective> collectives;  // by the reference's collective start
    Straggler straggler;
};

// The comparison of ranks from what each report gave (extractRankInput, or a summary read back
// by readRankSummary): Auto resolved (see AlignMode), the alignment by `mode` (alignRanks), each
// rank then moved by its nudge (ns, set by hand, added to its offset; missing entries are 0; the
// residual skew stays the alignment's), and the comparison on that timeline. O(n log n) in the
// collectives of all ranks.
RankComparison compareRankInputs(const std::vector<RankInput>& inputs, AlignMode mode,
                                 const std::vector<int64_t>& nudges_ns = {});

// extractRankInput of each report, in parallel (up to the machine's cores), in input order.
std::vector<RankInput> extractRankInputs(const std::vector<const Report*>& reports);
// extractRanksOf each report (a report holding several ranks gives one input per rank), in
// parallel, in input order: what `lanescope-cli compare` and Python's compare read.
std::vector<std::vector<RankInput>> extractRanksOfEach(const std::vector<const Report*>& reports);

// The whole chain in one call, as the viewer's Ranks panel and `lanescope-cli compare` use it:
// compareRankInputs(extractRankInputs(reports), mode, nudges). O(n log n) in the events of all
// reports.
RankComparison compareRanks(const std::vector<const Report*>& reports, AlignMode mode,
                            const std::vector<int64_t>& nudges_ns = {});

}  // namespace lanescope
