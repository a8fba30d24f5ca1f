#pragma once
#include <QString>

#include "model/EventDetails.h"
#include "model/Find.h"
#include "model/Report.h"

namespace lanescope {

// The details panel's HTML for one event: every field model/EventDetails gives, then an NVTX
// range's extended payload as a "Payload" table (field, value: model/NvtxPayloadDecoder.h) when
// it carries one, then its call stack (function and module file name per frame, innermost first)
// when it has one.
QString eventDetailsHtml(const Report& report, EventRef event);
// The same for one instant: a CPU sample with its call stack, an NVTX marker with its payload, ...
QString instantDetailsHtml(const Report& report, InstantRef instant);

}  // namespace lanescope
