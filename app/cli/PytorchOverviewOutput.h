#pragma once
#include <string>

#include "analysis/pytorch/StepOverview.h"

namespace lanescope::cli {

// The overview view in a command format (docs/analyses.md, "PyTorch overview"):
// - "table": the steps table, a blank line, the summary table (aligned text);
// - "json": one object {"report": "pytorch_overview", "rows": [...], "summary": {...}}, each
//   row and the summary an object keyed by the headers, an estimate not recorded as null (the
//   summary {} without steps);
// - "csv": the steps table alone (stdout); overviewSummaryLine gives the summary for stderr.
std::string formattedOverview(const StepOverview& view, const std::string& format);

// "6 steps: min 5088729 ns, median 5367804 ns, max 5605582 ns, slowest ProfilerStep#6" (one
// line for stderr beside the csv steps); empty without steps.
std::string overviewSummaryLine(const StepOverview& view);

}  // namespace lanescope::cli
