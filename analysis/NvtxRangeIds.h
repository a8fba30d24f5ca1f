#pragma once
#include <cstdint>
#include <vector>

#include "model/Report.h"

namespace lanescope {

// nsys's ids of a report's NVTX events: the rows of the export's NVTX_EVENTS, which holds every
// NVTX event of the report (ranges, markers, domain creations, category and thread names) in
// start order; a range's id is its RangeId in nsys's NVTX traces. So an event's id is its
// 1-based position among the ranges and markers of the threads' own NVTX lanes and
// Report::nvtx_other_starts_ns, merged by start. Equal starts (markers of different threads in
// the corpus) are in the report's order where it recorded one (Report::nvtx_ties, matched by
// thread and holder), else: events no lane holds, then by lane, a lane's ranges before its
// markers, each in lane order. O(n log lanes): a merge of the lanes.
struct NvtxEventIds {
    // Per lane (indexed like Report::lanes): one id per interval event (ranges) or instant
    // (marks) of an Nvtx or NvtxStartEnd lane; empty for the other lanes.
    std::vector<std::vector<uint32_t>> ranges;
    std::vector<std::vector<uint32_t>> marks;
    std::vector<uint32_t> others;  // one per Report::nvtx_other_starts_ns, in its order
};
NvtxEventIds nvtxEventIds(const Report& report);

}  // namespace lanescope
