#pragma once
#include <cstddef>
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
    size_t mainRows = 0;  // rows of the main table before a row limit cut it
};

// What a row of a view's main table points at on the timeline: the events named `eventName`
// (an operator's, a kernel's), or else the span [begin_ns, end_ns] on the report's timeline (a
// step, an allocation's lifetime); nothing when both are empty.
struct PytorchRowTarget {
    std::string eventName;
    int64_t begin_ns = -1, end_ns = -1;
};

// One view of the PyTorch panel and of `lanescope-cli pytorch --view NAME`.
struct PytorchViewEntry {
    std::string_view name;   // the CLI's --view value, e.g. "operators"
    std::string_view title;  // the panel's tab title, e.g. "Operators"
    // The view, its main table cut to its first `maxRows` rows (a viewer shows the first rows;
    // a view that builds many rows builds only those).
    PytorchViewResult (*compute)(const Report& report, size_t maxRows);
    // What row `row` of the view's main table (tables.front()) points at.
    PytorchRowTarget (*rowTarget)(const StatsTable& table, size_t row);
    // A grouping of another view's rows ("operators" by call stack) names that view, and its
    // tab offers it as a "Group by" choice labelled `grouping`; empty for a view of its own tab.
    std::string_view variantOf = {};
    std::string_view grouping = {};  // e.g. "name", "call stack"
};

// The views, in the panel's tab order, a view's groupings after it (docs/analyses.md defines each).
const std::vector<PytorchViewEntry>& pytorchViews();
// The view named `name`, or nullptr.
const PytorchViewEntry* findPytorchView(std::string_view name);

}  // namespace lanescope
