#pragma once
#include <QString>

#include "model/EventDetails.h"
#include "model/Find.h"
#include "model/Report.h"

namespace lanescope {

// The details panel's HTML for one event: every field model/EventDetails gives, then its
// call stack (function and module file name per frame, innermost first) when it has one.
QString eventDetailsHtml(const Report& report, EventRef event);
// The same for one instant: a CPU sample with its call stack, an NVTX marker, ...
QString instantDetailsHtml(const Report& report, InstantRef instant);

}  // namespace lanescope
