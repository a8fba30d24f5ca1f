#pragma once
#include <QString>

#include "model/Report.h"

namespace lanescope {

// An HTML overview of a report: source, producer, span, processes, GPUs, event counts and
// diagnostics, for the viewer's summary panel.
QString reportSummaryHtml(const Report& report);

}  // namespace lanescope
