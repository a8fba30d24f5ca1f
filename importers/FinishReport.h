#pragma once
#include <functional>

#include "model/Report.h"

namespace lanescope {

// The one finishing step of every import: importFile runs it once on whatever an importer
// built, in any format. It
//   - derives the NCCL lanes (unless the importer read them from the file, as a Perfetto
//     export carries them): one lane per process and GPU holding copies of the nccl* kernels
//     and of the ranges of the NVTX domain "NCCL";
//   - makes a "Profiler overhead" lane per thread from Report::profiler_overhead;
//   - separates each stream's kernels from its memory operations, the kernel lanes one after
//     the other, and packs their columns into one block once frozen (importers/KernelLanes.h);
//   - freezes every lane (in parallel on up to `threads` threads, largest first) and counter,
//     after adding the whole-CPU utilization counter made from the frozen CPU core lanes
//     (Report::cpu_utilization_counter) and, per GPU, the bytes unified memory migrated to it
//     and from it so far; Report::file_order then counts the lanes' events in frozen order;
//   - places the NVTX extended payloads read on the events that carry them (model/NvtxPayloadPlacement.h);
//   - adds the lanes a viewer asked for (ImportOptions::add_view_lanes), when given;
//   - sets the report's time span;
//   - sets its rank to the MPI rank it records, if any (model/MpiRank.h).
// After it the report is immutable; what only some readers need (the correlation index, NVTX
// on the GPU) is derived on first use and kept in Report::derived.
void finishReport(Report& report, unsigned threads, const std::function<void(Report&)>& addViewLanes = {});

}  // namespace lanescope
