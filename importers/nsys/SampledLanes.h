#pragma once
#include <vector>

#include "importers/SqliteDb.h"
#include "importers/nsys/ReportBuilder.h"

namespace lanescope::nsys {

// Lanes of an nsys export that a look at a few thousand rows finds, for the row skeleton
// before the event tables are read (ReportBuilder::skeleton): the NVTX, CUDA API and OS runtime
// lanes of threads and the GPU stream lanes, from kWindows windows of kWindowRows rows evenly
// spread over each table's rowids, each row taken as its table's reader would take it. A few
// milliseconds however large the tables (SELECT DISTINCT deviceId, streamId, globalPid over the
// kernels alone takes 0.7 s of a core on 10 M events). A thread or stream with little work may be
// missed; every lane found holds events once read. In the order the readers make them: by
// table as read, then by (kind, owner, device, stream, context); distinct.
std::vector<LaneKey> sampledLanes(const SqliteDb& db);

}  // namespace lanescope::nsys
