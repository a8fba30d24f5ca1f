#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/Find.h"
#include "model/Report.h"

namespace lanescope {

// One collective as one rank ran it: an NCCL kernel (ncclDevKernel_AllReduce_Sum_f32_RING_LL,
// ncclKernel_Broadcast_RING_LL_Sum_int8_t, ...) or an MPI call (MPI_Allreduce, ...; see
// MpiCalls.h). Times in ns on the report's own timeline; start_ns <= block_start_ns <= end_ns.
struct Collective {
    std::string kind;      // NCCL: "AllReduce", "Broadcast", ...; MPI: the call's name, "MPI_Allreduce", ...
    int32_t gpu = -1;      // index into Report::gpus; -1 for MPI calls (CPU side)
    int64_t start_ns = 0;  // kernel or call start: when this rank arrived in the collective
    int64_t end_ns = 0;    // kernel end, or the call's (a nonblocking one's: its wait's) end
    // From when the rank could only wait: start_ns, except for a nonblocking MPI collective
    // (MPI_Iallreduce, ...), where it is the start of the MPI_Wait* call that completed it.
    int64_t block_start_ns = 0;
    EventRef kernel;  // the kernel in its GPU stream lane, or the call in its MPI lane
};

// The collective kind named by an NCCL kernel, or "" when `kernelName` is not one.
std::string collectiveKind(std::string_view kernelName);

// Every NCCL kernel of the report, sorted by start_ns (ties by end). One rank per report: the
// collectives of all its GPUs are listed together. With `process` (an index into
// Report::processes), that process's kernels only.
std::vector<Collective> ncclCollectives(const Report& report, int32_t process = -1);

}  // namespace lanescope
