#pragma once
#include "model/Report.h"

namespace lanescope::nsys {

// nsys writes device 0 in every synchronization row (CUPTI's record names no device), whatever
// GPU the context ran on: a rank on GPU 1 would show its syncs on a GPU 0 of their own. A
// CudaSync lane whose GPU is not the one the stream lanes of its process and context ran on
// (all on one) moves to that one, keeping the recorded one in Lane::recorded_gpu. Used by the
// finished report (ReportBuilder::complete) and the rows shown while it loads (skeleton).
void placeSyncLanesOnTheirContextsGpu(Report& report);

}  // namespace lanescope::nsys
