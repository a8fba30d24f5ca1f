#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/Find.h"
#include "model/Report.h"

namespace lanescope {

// One NCCL collective as its GPU kernel ran it (ncclDevKernel_AllReduce_Sum_f32_RING_LL,
// ncclKernel_Broadcast_RING_LL_Sum_int8_t, ...). Times in ns on the report's own timeline.
struct Collective {
    std::string kind;      // "AllReduce", "Broadcast", "AllGather", "ReduceScatter", "SendRecv", ...
    int32_t gpu = -1;      // index into Report::gpus
    int64_t start_ns = 0;  // kernel start: when this rank arrived in the collective
    int64_t end_ns = 0;    // kernel end: collectives of all ranks complete together
    EventRef kernel;       // the kernel in its GPU stream lane
};

// The collective kind named by an NCCL kernel, or "" when `kernelName` is not one.
std::string collectiveKind(std::string_view kernelName);

// Every NCCL kernel of the report, sorted by start_ns (ties by end). One rank per report: the
// collectives of all its GPUs are listed together.
std::vector<Collective> ncclCollectives(const Report& report);

}  // namespace lanescope
