#pragma once
#include "model/Report.h"

namespace lanescope {

// A CUDA stream's kernels and its memory operations (memcpy, memset) are two lanes of kind
// GpuStream with the same owners (process, GPU, context, stream): every kernel of the report then
// lies in a lane of kernels only, and all of them together in one block of memory per column, so
// that a reader can take "every kernel" as one array (the Python module's events("kernels"), a
// numpy view) instead of picking them out of mixed lanes. The timeline shows the two lanes of a
// stream on one row (timeline/RowTree.h).

// Before freezing: moves the events of each stream lane that are not kernels into a new lane of
// the same stream (its CUDA event records stay with the kernels), and orders Report::lanes so that
// the kernel lanes follow one another, in their order, where the first of them was, with the new
// memory lanes right after them. Every other lane keeps its order; Report::file_order follows the
// lanes that move. On `threads` threads (0: every core), as the next does.
void separateKernelLanes(Report& report, unsigned threads);

// After freezing (ColumnFit::KeepCapacity for the kernel lanes: this is their fit to size):
// copies the columns of the kernel lanes into one block per report, each column of the lanes one
// after the other in lane order, and makes the lanes' columns views of it (model/Column.h), so
// that lane k's start_ns ends where lane k+1's begins. A model file keeps
// them so (its sections hold the lanes' columns in lane order, importers/cache/ModelFormat.h).
void packKernelLanes(Report& report, unsigned threads);

}  // namespace lanescope
