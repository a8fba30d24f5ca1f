#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/Find.h"
#include "model/Report.h"

namespace lanescope {

inline constexpr uint32_t kNoNvtxParent = UINT32_MAX;

// One thread's NVTX ranges under local ids: lanes[k]'s event i has id base[k] + i.
struct ThreadRanges {
    std::vector<uint32_t> lanes;  // the thread's NVTX lanes, in lane order
    std::vector<uint32_t> base;   // parallel to lanes, ascending
    uint32_t size = 0;            // ranges in all (local ids 0 .. size - 1)

    // The event of a local id (a thread has a few NVTX lanes: no table is needed).
    EventRef ref(uint32_t id) const {
        const size_t k = size_t(std::upper_bound(base.begin(), base.end(), id) - base.begin()) - 1;
        return {lanes[k], id - base[k]};
    }
};

// The ranges of `nvtxLanes` (one thread's NVTX lanes, in lane order) under local ids.
ThreadRanges threadRanges(const Report& report, const std::vector<uint32_t>& nvtxLanes);

// Parent (local id, or kNoNvtxParent for an outermost range) and level (its number of
// ancestors) of every range of one thread, as nsys nests a thread's NVTX ranges: the parent is
// the shortest other range containing it, the latest in (start ascending, end descending,
// local id) order on ties. Properly nested ranges nest as a stack; ranges that only overlap
// (a PyTorch trace's Python frames and operators, on two lanes) nest each in the shortest
// range holding it. O(n log n): a sweep in that order with a Fenwick tree over the ends.
// `parent` and `level` have flat.size entries; the lanes' markers (instants) are not ranges.
void computeHierarchy(const Report& report, const ThreadRanges& flat, std::vector<uint32_t>& parent,
                      std::vector<int32_t>& level);

}  // namespace lanescope
