#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "model/Find.h"
#include "model/Report.h"

namespace lanescope {

// Links between CUDA API calls and the GPU work they launched, through CUDA correlation ids,
// which are unique only within one process. Built once per frozen report in O(n log n); the
// report must outlive the index and stay unchanged. Queries are binary searches, O(log n).
//
// Events with correlation id 0 (none recorded) are not indexed. GPU operations are taken
// from their own stream lanes only; the copies in NCCL lanes are not indexed, but
// launcherOf() also answers for such a copy (it reads the copy's own side-table row).
class CorrelationIndex {
public:
    explicit CorrelationIndex(const Report& report);

    // The API call that launched a GPU operation (Kernel, Memcpy, Memset or GraphExecution event) of the same
    // process with the same correlation id, if any. Should several calls share the id, the
    // first in (lane, index) order. Other kinds and invalid refs give nullopt.
    std::optional<EventRef> launcherOf(EventRef gpuOp) const;
    // The GPU operations launched by a CUDA API call, in (lane, index) order: usually 0 or 1
    // (a graph launch can give more). Other kinds and invalid refs give none.
    std::vector<EventRef> launchedBy(EventRef apiCall) const;

    size_t apiCallCount() const { return calls_.size(); }
    size_t gpuOpCount() const { return ops_.size(); }
    size_t memoryBytes() const;

    // One indexed event, 16 bytes. process is Lane::process as unsigned (-1 -> UINT32_MAX).
    struct Entry {
        uint32_t process;
        uint32_t correlation;
        uint32_t lane;
        uint32_t index;
    };

private:
    const Report* report_;
    // Both sorted by (process, correlation, lane, index) ascending; no duplicates.
    std::vector<Entry> calls_;  // CudaApiCall events
    std::vector<Entry> ops_;    // Kernel, Memcpy, Memset and GraphExecution events of non-NCCL lanes
};

// The CUDA correlation id of a Kernel, Memcpy, Memset, Sync, GraphExecution or CudaApiCall event; nullopt
// for other kinds, an invalid ref, a missing side-table row or an API call without one.
std::optional<uint32_t> correlationIdOf(const Report& report, EventRef ref);

// The report's correlation index, built on first use and kept with the report.
const CorrelationIndex& correlationIndex(const Report& report);

}  // namespace lanescope
