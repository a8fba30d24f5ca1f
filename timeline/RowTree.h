#pragma once
#include <string>
#include <vector>

#include "model/Report.h"

namespace lanescope {

// One row of the timeline's row tree: a group (GPU, process, thread) or a lane.
struct Row {
    enum class Type { Report, Gpu, Process, Thread, Lane, Counter, Cpus };
    Type type;
    std::string label;
    int index;            // into Report::gpus/processes/threads/lanes/counters by type, -1 for Report and Cpus
    uint64_t events = 0;  // events in this row and all below it
    std::vector<Row> children;
    // A stream's memory lane (index into Report::lanes) drawn on the row of its kernel lane,
    // `index`, as one "Stream 7" row; -1 for every other row.
    int merged_lane = -1;
};

enum class RowOrder { GpuFirst, CpuFirst };  // Nsight's two presets

// The row hierarchy of a report: per GPU its streams (a stream's kernel and memory lanes on one
// row), NCCL and counters (each lane naming its
// process on a GPU that several processes used); per process its
// threads with their thread state, CPU samples, NVTX, MPI, CUDA API and OS runtime lanes;
// then a "CPUs" group with the whole-CPU utilization and a row per core. Groups in model order; lanes of a group in
// that fixed kind order (streams by id, cores by number). GPUs, threads and processes without lanes are
// left out, unless `keepEmpty` (a report still loading, whose lanes are not all known yet).
std::vector<Row> buildRowTree(const Report& report, RowOrder order = RowOrder::GpuFirst, bool keepEmpty = false);

}  // namespace lanescope
