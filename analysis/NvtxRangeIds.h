#pragma once
#include <cstdint>
#include <vector>

#include "model/Report.h"

namespace lanescope {

// nsys's RangeId of NVTX ranges: the row of the range in the export's NVTX_EVENTS, which holds
// every NVTX event of the report (ranges, markers, domain creations, category and thread names)
// in start order. So a range's id is its 1-based position among the ranges and markers of the
// threads' own NVTX lanes and Report::nvtx_other_starts_ns, merged by start. Equal starts
// (only markers of different threads in the corpus) are ordered: events no lane holds, then
// by lane, a lane's ranges before its markers, each in lane order.
//
// Per lane (indexed like Report::lanes), one id per interval event of that lane: filled for
// Nvtx and NvtxStartEnd lanes, empty for the others. O(n log lanes): a merge of the lanes.
std::vector<std::vector<uint32_t>> nvtxRangeIds(const Report& report);

}  // namespace lanescope
