#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>

#include "analysis/communication/CollectiveInstances.h"
#include "model/Find.h"
#include "model/Report.h"

namespace lanescope {

// The collectives of one report on its own (analyzeCommunication of it alone: each kernel's
// operation, size and bandwidths, which need no other rank), computed on first use and kept in the
// report's derived cache, so that Details and the timeline's bandwidth colours compute them once.
// Thread-safe; throws Cancelled where analyzeCommunication does, keeping nothing.
const CommunicationAnalysis& reportCollectives(const Report& report);

// The row of `rows` of rank `rank` that is the NCCL kernel `event` of `report` (that rank's
// report): the kernel on its stream, or its copy on the NCCL row (the same row of Report::kernels);
// nullopt when the event is no collective of it. O(log n) in the rows.
std::optional<size_t> collectiveRowOf(const CollectiveRows& rows, uint16_t rank, const Report& report, EventRef event);

}  // namespace lanescope
