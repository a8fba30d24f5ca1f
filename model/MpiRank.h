#pragma once
#include <string_view>

#include "model/Report.h"

namespace lanescope {

// The rank in a text an MPI program or nsys records: "MPI Rank 4", "[MPI Rank 4]",
// "mpi rank: 4" (case-insensitive; ' ', ':', '=', '#' between; digits not followed by a letter
// or digit), or -1.
int mpiRankInText(std::string_view text);

// The MPI rank a report records: the first NVTX mark (an instant of an NVTX lane) whose text
// names one, else the first thread name that does; -1 when none. O(NVTX instants + threads).
int recordedMpiRank(const Report& report);

}  // namespace lanescope
