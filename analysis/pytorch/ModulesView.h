#pragma once
#include <string>

#include "analysis/StatsTable.h"
#include "model/Report.h"

namespace lanescope {

// The PyTorch "modules" view (TensorBoard's Module view): the nn.Module calls a trace records
// with with_modules=True (`python_function` events named "nn.Module: NAME" in the threads'
// Python lanes) as a tree. A module's parent is the nearest module enclosing it on its thread;
// instances are grouped by their path from the root ("Net_0/Sequential_0/Block_0/Conv2d_0").
// Columns (docs/analyses.md, "PyTorch modules"): Module (the path), Depth (0 for a root),
// Calls, Host Total (ns), Host Self (ns), Device Total (ns), Device Self (ns). Rows in tree
// order: depth first, a module before its children, siblings by their first call's start.
struct ModulesView {
    StatsTable table;  // name "pytorch_modules"; no rows when the report has no module calls
    // Why the table has no rows, for the caller to print; empty when it has rows.
    std::string missing;
};

ModulesView pytorchModules(const Report& report);

}  // namespace lanescope
