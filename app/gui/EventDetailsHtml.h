#pragma once
#include <QString>

#include "model/Find.h"
#include "model/Report.h"

namespace lanescope {

// The details panel's HTML for one event: every field model/EventDetails gives.
QString eventDetailsHtml(const Report& report, EventRef event);

}  // namespace lanescope
