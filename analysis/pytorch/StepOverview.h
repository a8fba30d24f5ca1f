#pragma once
#include <string>

#include "analysis/StatsTable.h"
#include "model/Report.h"

namespace lanescope {

// TensorBoard's Overview of a PyTorch trace (docs/analyses.md, "PyTorch overview").
struct StepOverview {
    // One row per step (analysis/pytorch/StepSpans.h), in step order: Step, Start (ns),
    // Duration (ns), then the step's span split by priority into Kernel, Memcpy, Memset,
    // Runtime, DataLoader, CPU Exec and Other (ns, summing to Duration), GPU Utilization (%),
    // Est. SM Efficiency (%) and Est. Achieved Occupancy (%) (empty where no kernel of the
    // step records the estimate). No rows only for a report without events.
    StatsTable steps;
    // One row once there are steps: Steps, Min Step (ns), Median Step (ns), Max Step (ns),
    // Slowest Step.
    StatsTable summary;
    // What the trace lacks (no ProfilerStep#N ranges, no GPU work), one line; empty when nothing.
    std::string missing;
};

StepOverview pytorchStepOverview(const Report& report);

}  // namespace lanescope
