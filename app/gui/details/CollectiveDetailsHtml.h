#pragma once
#include <QString>

#include "analysis/communication/CollectiveInstances.h"
#include "model/Find.h"
#include "model/Report.h"

namespace lanescope {

// Details' lines for an NCCL kernel (on its stream or on the NCCL row): its operation, size,
// ranks, communicator, algbw and busbw, from the report's collectives analysed alone (once, kept
// with the report: panels/communication/ReportCollectives.h). Given `across`, an analysis of
// several open reports with `rank` this report's place among them (the Communication panel's),
// also its wait for the last rank, its instance's skew and the rank that came last. Empty for
// any other event.
QString collectiveDetailsHtml(const Report& report, EventRef event, const CommunicationAnalysis* across = nullptr,
                              int rank = -1);

}  // namespace lanescope
