#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/ranks/Collectives.h"
#include "model/MpiCall.h"
#include "model/Report.h"

namespace lanescope {

// Time one rank spent inside point-to-point calls of one name (MPI_Sendrecv, MPI_Wait, ...).
// The reports carry no peer, so it is per call name only.
struct PointToPointTimes {
    uint32_t count = 0;
    int64_t blocked_ns = 0;  // summed call durations (ns); for MPI_Isend/Irecv just the posting
};

// The MPI calls of one report (its LaneKind::Mpi lanes, all threads), sorted for comparison.
struct MpiActivity {
    // Its collectives, sorted by start_ns (ties by end): the blocking ones as they ran, and each
    // nonblocking one from its call's start to the end of the MPI_Wait* that completed it (the
    // first wait after it on the same thread: MPI_Waitall completes all pending, the others the
    // oldest), block_start_ns that wait's start. Kind: the call's name.
    std::vector<Collective> collectives;
    // By call name, sorted: point-to-point calls, and the waits no collective claimed.
    std::map<std::string, PointToPointTimes> point_to_point;
};

// Reads the report's MPI calls (with `process`, an index into Report::processes, that process's
// only). O(n) in its MPI calls (plus the sort of its collectives).
MpiActivity mpiActivity(const Report& report, int32_t process = -1);

}  // namespace lanescope
