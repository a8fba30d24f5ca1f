#pragma once
#include "analysis/StatsTable.h"
#include "model/Report.h"
#include "model/TimeRange.h"

namespace lanescope {

// The `nsys stats` reports over data the model does not hold: MPI (MPI_* tables of 2025.3
// exports), OpenACC, OpenMP, unified memory and system calls. They give no rows (nsys prints
// nothing for a report without that data); the header is nsys's, for the table views.
// mpi_event_sum needs the MPI_OTHER_EVENTS / MPI_*_EVENTS tables (start, end, thread, event
// name) imported into the model to be computed.
StatsTable mpiEventSum(const Report& report, TimeRange range);
StatsTable mpiEventTrace(const Report& report, TimeRange range);
StatsTable mpiMsgSizeSum(const Report& report, TimeRange range);
StatsTable openaccSum(const Report& report, TimeRange range);
StatsTable openmpSum(const Report& report, TimeRange range);
StatsTable syscallSum(const Report& report, TimeRange range);
StatsTable umCpuPageFaultsSum(const Report& report, TimeRange range);
StatsTable umSum(const Report& report, TimeRange range);
StatsTable umTotalSum(const Report& report, TimeRange range);

}  // namespace lanescope
