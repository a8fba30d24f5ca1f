#pragma once
#include <QString>

#include "app/gui/panels/ranks/RankSummaries.h"
#include "model/Report.h"

namespace lanescope {

// An HTML overview of a report: source, producer, span, processes, GPUs, event counts and
// diagnostics, for the viewer's summary panel.
QString reportSummaryHtml(const Report& report);
// The Details panel with rank summaries open: what they are, and where their reports are.
QString rankSummariesHtml(const SummarySet& set);

}  // namespace lanescope
