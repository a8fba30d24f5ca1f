#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/ranks/RankInput.h"

namespace lanescope {

// How the reports of one job's ranks are placed on one timeline.
enum class AlignMode {
    Clock,  // by wall clock: each report's session start in UTC (nsys, Kineto baseTimeNanoseconds)
    Nccl,   // by NCCL collectives: matched collectives of all ranks end together
    None,   // each report's own time zero at the same place
    Mpi,    // by MPI collectives (MPI_Allreduce, MPI_Barrier, ...), as Nccl
    Auto,   // Nccl when every rank has NCCL collectives, else Mpi when every rank has MPI ones, else
            // Clock (compareRanks decides; RankAlignment::mode is then the one it chose)
};
// "clock", "nccl", "mpi", "none", "auto"
std::optional<AlignMode> parseAlignMode(std::string_view name);
const char* alignModeName(AlignMode mode);

// The reports of several ranks aligned to the first one. Offsets are ns added to a report's
// own times to put them on the shared timeline (the first report's timeline; its offset is 0).
struct RankAlignment {
    AlignMode mode = AlignMode::Clock;
    std::vector<int64_t> offsets_ns;  // per report, in input order
    // The report whose collectives the others are matched to: the first one with any (-1: none).
    int reference = -1;
    // matches[r][c]: the index into report r's collectives of the one matched to the reference's
    // collective c, or -1: the same kind in the same order, allowing for a capture that missed
    // the first ones (found with the clocks, see alignRanks); empty when nothing matched.
    std::vector<std::vector<int32_t>> matches;
    // Per report, the skew the offsets leave: |aligned end - reference's aligned end| over its
    // matched collectives whose ends coincide (AllReduce, AllGather, ReduceScatter, AllToAll;
    // MPI_Allreduce, MPI_Allgather(v), MPI_Reduce_scatter(_block), MPI_Alltoall(v, w),
    // MPI_Barrier; all kinds when none), median and maximum; -1 where nothing matched.
    std::vector<int64_t> residual_median_ns, residual_max_ns;
    std::vector<std::string> notes;  // what could not be done as asked, one line each
};

// `collectives[r]` are rank r's collectives: ranks[r].nccl for Nccl (and for Clock and None when
// matching NCCL ones), ranks[r].mpi for Mpi; the ranks give their session starts and file names.
// Nccl and Mpi: the median difference of the matched ends of the collectives that end together. Up to 16 collectives
// missed at the start of a capture are found when both reports have a session start time (without one, the k-th matches
// the k-th). Reports without a session start time are not moved by Clock; reports without collectives fall back to
// Clock under Nccl and Mpi; both say so in notes. Auto is taken as Clock here (compareRanks resolves it first). O(n log
// n).
RankAlignment alignRanks(const std::vector<RankInput>& ranks, const std::vector<const CollectiveColumns*>& collectives,
                         AlignMode mode);

}  // namespace lanescope
