#pragma once
#include <cstdint>

#include "model/Report.h"

namespace lanescope {

// How a report's GPUs spent their time, summed over its GPUs, in ns. Each GPU's window runs
// from its first GPU operation's start to its last one's end. Compute: the union of its
// kernels (NCCL kernels excepted), memcpy and memset; communication: the union of its NCCL
// kernels; overlap: when both run; idle: the window minus the union of all.
struct GpuShares {
    int64_t window_ns = 0;
    int64_t compute_ns = 0;
    int64_t communication_ns = 0;
    int64_t overlap_ns = 0;
    int64_t idle_ns = 0;

    double share(int64_t part) const { return window_ns > 0 ? double(part) / double(window_ns) : 0.0; }
    // The part of communication hidden behind computation (0 when there is none).
    double hiddenCommunication() const {
        return communication_ns > 0 ? double(overlap_ns) / double(communication_ns) : 0.0;
    }
};

// O(n log streams) in the number of GPU operations: each stream lane is sorted by start already,
// so its union is one pass, and the streams of a GPU are merged in pairs. With `process` (an
// index into Report::processes), that process's streams only.
GpuShares gpuShares(const Report& report, int32_t process = -1);

}  // namespace lanescope
