#pragma once
#include <string>
#include <vector>

#include "model/Report.h"

namespace lanescope {

// One row of the timeline's row tree: a group (GPU, process, thread) or a lane.
struct Row {
    enum class Type { Report, Gpu, Process, Thread, Lane, Counter };
    Type type;
    std::string label;
    int index;            // into Report::gpus/processes/threads/lanes/counters by type, -1 for Report
    uint64_t events = 0;  // events in this row and all below it
    std::vector<Row> children;
};

enum class RowOrder { GpuFirst, CpuFirst };  // Nsight's two presets

// The row hierarchy of a report: per GPU its streams, NCCL and counters; per process its
// threads with their CUDA API, NVTX and OS runtime lanes. Groups in model order; lanes of a
// group in a fixed kind order (NVTX, CUDA API, OS runtime; streams by id).
std::vector<Row> buildRowTree(const Report& report, RowOrder order = RowOrder::GpuFirst);

}  // namespace lanescope
