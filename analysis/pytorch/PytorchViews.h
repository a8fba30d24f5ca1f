#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "analysis/StatsTable.h"
#include "model/Report.h"

namespace lanescope {

// What one PyTorch view computed on a report: its tables (the main one first) and, when the
// report lacks what the view needs, one line saying what is missing, why, and how to record it
// ("no GPU kernels: the trace records none (...)"). A view with rows may still say what is
// missing (operators without GPU work: the device columns are 0).
struct PytorchViewResult {
    std::vector<StatsTable> tables;
    std::string missing;
};

// One view of the PyTorch panel and of `lanescope-cli pytorch --view NAME`.
struct PytorchViewEntry {
    std::string_view name;   // the CLI's --view value, e.g. "operators"
    std::string_view title;  // the panel's tab title, e.g. "Operators"
    // Which column names what a row's instances are called on the timeline (the events to show
    // when a row is picked); -1 when rows are not events (steps, allocations).
    int instanceNameColumn;
    PytorchViewResult (*compute)(const Report& report);
};

// The views, in the panel's tab order (docs/analyses.md defines each).
const std::vector<PytorchViewEntry>& pytorchViews();
// The view named `name`, or nullptr.
const PytorchViewEntry* findPytorchView(std::string_view name);

}  // namespace lanescope
