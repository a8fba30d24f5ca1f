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
// which are unique only within one process. Built once per frozen report in O(n) for lanes
// whose correlation ids already ascend with their events (nearly every lane), O(n log n) for
// the others; the report must outlive the index and stay unchanged. Lookups are binary
// searches in the lanes themselves, one per lane of the process.
//
// Memory: 4 bytes for each indexed event of a lane whose ids do not ascend in event order, or
// that also holds events without one (id 0, other kinds); nothing for the others. Events with
// correlation id 0 (none recorded) are not indexed. GPU operations are taken from their own
// stream lanes only; the copies in NCCL lanes are not indexed, but launcherOf() also answers
// for such a copy (it reads the copy's own side-table row).
class CorrelationIndex {
public:
    // Built on `threads` threads (each lane on one).
    explicit CorrelationIndex(const Report& report, unsigned threads = 1);

    // The API call that launched a GPU operation (Kernel, Memcpy, Memset or GraphExecution event) of the same
    // process with the same correlation id, if any. Should several calls share the id, the
    // first in (lane, index) order. Other kinds and invalid refs give nullopt.
    std::optional<EventRef> launcherOf(EventRef gpuOp) const;
    // The GPU operations launched by a CUDA API call, in (lane, index) order: usually 0 or 1
    // (a graph launch can give more). Other kinds and invalid refs give none.
    std::vector<EventRef> launchedBy(EventRef apiCall) const;

    // Where the last lookup through it ended, in each GPU lane of the process. Looking the
    // calls of one lane up in time order with one cursor costs O(1) a call and GPU lane rather
    // than O(log n): their correlation ids mostly ascend, and each search gallops from the last place.
    struct Cursor {
        size_t bucket = SIZE_MAX;
        std::vector<size_t> positions;  // per ops lane of the bucket, a position in its correlation order
        // Per ops lane, the correlation ids just before and at that position (kNoneBefore before
        // the first, kPastLast past the last): the position of an id between the two is known
        // without reading the lane, which is so for every lane but the one that ran the call.
        std::vector<uint64_t> id_before, id_at;
    };
    // launchedBy() without the vector: visit(EventRef) for each operation, in (lane, index) order.
    template <typename Visit>
    void forEachLaunched(EventRef apiCall, Cursor& cursor, Visit&& visit) const {
        const std::optional<std::pair<size_t, uint32_t>> key = callKey(apiCall);
        if (!key) return;
        const std::vector<LaneOrder>& lanes = buckets_[key->first].ops;
        if (cursor.bucket != key->first) {
            cursor.bucket = key->first;
            cursor.positions.assign(lanes.size(), 0);
            cursor.id_before.assign(lanes.size(), kPastLast);  // unknown: searched on first use
            cursor.id_at.assign(lanes.size(), kNoneBefore);
        }
        const uint64_t id = key->second;  // >= 1: calls without an id have no key
        for (size_t k = 0; k < lanes.size(); ++k) {
            const LaneOrder& lane = lanes[k];
            size_t& at = cursor.positions[k];
            if (!(cursor.id_before[k] < id && id <= cursor.id_at[k])) {  // else `at` is its lower bound
                at = lowerBoundFrom(lane, at, key->second);
                cursor.id_before[k] = at > 0 ? correlationAt(lane, at - 1) : kNoneBefore;
                cursor.id_at[k] = at < lane.count ? correlationAt(lane, at) : kPastLast;
            }
            if (cursor.id_at[k] != id) continue;
            for (size_t p = at; p < lane.count && correlationAt(lane, p) == key->second; ++p)
                visit(EventRef{lane.lane, lane.eventAt(p)});
        }
    }

    size_t apiCallCount() const;
    size_t gpuOpCount() const;
    size_t memoryBytes() const;

    // One lane's indexed events (calls, or GPU operations) in correlation order: ascending
    // correlation id, then event index.
    struct LaneOrder {
        uint32_t lane = 0;   // index into Report::lanes
        uint32_t count = 0;  // events indexed
        // The lane's indexed events in that order; empty when they are all the lane's events
        // and their ids already ascend, where position p is event p.
        std::vector<uint32_t> order;
        uint32_t eventAt(size_t position) const { return order.empty() ? uint32_t(position) : order[position]; }
    };
    // Per process (in Report::processes order, then one for lanes of no process), its lanes
    // of CUDA API calls and of GPU operations, each in lane order.
    struct Bucket {
        std::vector<LaneOrder> calls, ops;
    };

private:
    static constexpr uint64_t kNoneBefore = 0;                // below every indexed id (ids are >= 1)
    static constexpr uint64_t kPastLast = uint64_t{1} << 32;  // above every id
    uint32_t correlationAt(const LaneOrder& lane, size_t position) const;
    // The first position at or after `correlation`, searched outwards from `hint`.
    size_t lowerBoundFrom(const LaneOrder& lane, size_t hint, uint32_t correlation) const;
    // (bucket, correlation id) of a CUDA API call with one; nullopt otherwise.
    std::optional<std::pair<size_t, uint32_t>> callKey(EventRef apiCall) const;
    size_t bucketOf(int32_t process) const;

    const Report* report_;
    std::vector<Bucket> buckets_;
};

// The CUDA correlation id of a Kernel, Memcpy, Memset, Sync, GraphExecution or CudaApiCall event; nullopt
// for other kinds, an invalid ref, a missing side-table row or an API call without one.
std::optional<uint32_t> correlationIdOf(const Report& report, EventRef ref);

// The report's correlation index, built on first use (on `threads` threads) and kept with the
// report.
const CorrelationIndex& correlationIndex(const Report& report, unsigned threads = 1);

}  // namespace lanescope
