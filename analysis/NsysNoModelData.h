#pragma once
#include "analysis/StatsTable.h"
#include "model/Report.h"
#include "model/TimeRange.h"

namespace lanescope {

// The `nsys stats` reports over data the model does not hold: MPI messages and their
// parameters (MPI_P2P_EVENTS, MPI_COLLECTIVES_EVENTS of newer captures: no corpus file has
// them), OpenACC and system calls. They give no rows (nsys prints
// nothing for a report without that data); the header is nsys's, for the table views.
StatsTable mpiEventTrace(const Report& report, TimeRange range);
StatsTable mpiMsgSizeSum(const Report& report, TimeRange range);
StatsTable openaccSum(const Report& report, TimeRange range);
StatsTable syscallSum(const Report& report, TimeRange range);

}  // namespace lanescope
