#pragma once
#include <QString>

#include "model/Find.h"
#include "model/Report.h"

namespace lanescope {

// The details panel's HTML for one event: every field model/EventDetails gives, then its
// call stack (function and module file name per frame, innermost first) when it has one.
QString eventDetailsHtml(const Report& report, EventRef event);

}  // namespace lanescope
