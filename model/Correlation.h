#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "model/Find.h"
#include "model/Report.h"

namespace lanescope {

// Links between CUDA API calls and the GPU work they launched, through CUDA correlation ids,
// which are unique only within one process. Built once per frozen report in O(n log n); the
// report must outlive the index and stay unchanged. Queries are binary searches, O(log n).
//
// Events with correlation id 0 (none recorded) are not indexed, nor events past the first
// 2^32 of the report (event ids are 32-bit: 8 bytes an indexed event). GPU operations are taken
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

    // Where the last lookup through it ended. Looking the calls of one lane up in time order
    // with one cursor costs O(1) a call rather than O(log n): their correlation ids mostly
    // ascend, and the search gallops from the last place.
    struct Cursor {
        size_t bucket = SIZE_MAX;
        size_t position = 0;
    };
    // launchedBy() without the vector: visit(EventRef) for each operation, in (lane, index) order.
    template <typename Visit>
    void forEachLaunched(EventRef apiCall, Cursor& cursor, Visit&& visit) const {
        const std::optional<std::pair<size_t, uint32_t>> key = callKey(apiCall);
        if (!key) return;
        const std::vector<Entry>& entries = ops_[key->first];
        if (cursor.bucket != key->first) cursor = {key->first, 0};
        cursor.position = lowerBoundFrom(entries, cursor.position, key->second);
        for (size_t i = cursor.position; i < entries.size() && entries[i].correlation == key->second; ++i)
            visit(refOf(entries[i].event));
    }

    size_t apiCallCount() const { return count(calls_); }
    size_t gpuOpCount() const { return count(ops_); }
    size_t memoryBytes() const;

    // One indexed event, 8 bytes: its correlation id and its event id, the position of the
    // event in all lanes' events taken lane after lane (first_event_ gives a lane's first).
    struct Entry {
        uint32_t correlation;
        uint32_t event;
    };
    // Per process, in Report::processes order, then one for lanes of no process: the entries
    // sorted by (correlation, event) ascending, so by (lane, index) within a correlation id.
    using Buckets = std::vector<std::vector<Entry>>;

private:
    static size_t count(const Buckets& buckets);
    // The first entry at or after `correlation`, searched outwards from `hint`.
    static size_t lowerBoundFrom(const std::vector<Entry>& entries, size_t hint, uint32_t correlation);
    // (bucket, correlation id) of a CUDA API call with one; nullopt otherwise.
    std::optional<std::pair<size_t, uint32_t>> callKey(EventRef apiCall) const;
    EventRef refOf(uint32_t event) const;
    std::vector<EventRef> find(const Buckets& buckets, int32_t process, uint32_t correlation) const;

    const Report* report_;
    std::vector<uint64_t> first_event_;  // per lane, the event id of its first event; then the total
    Buckets calls_;                      // CudaApiCall events
    Buckets ops_;                        // Kernel, Memcpy, Memset and GraphExecution events of non-NCCL lanes
};

// The CUDA correlation id of a Kernel, Memcpy, Memset, Sync, GraphExecution or CudaApiCall event; nullopt
// for other kinds, an invalid ref, a missing side-table row or an API call without one.
std::optional<uint32_t> correlationIdOf(const Report& report, EventRef ref);

// The report's correlation index, built on first use and kept with the report.
const CorrelationIndex& correlationIndex(const Report& report);

}  // namespace lanescope
