#pragma once
#include <cstdint>
#include <string>

#include "model/EventOrder.h"
#include "model/EventRows.h"

namespace lanescope {

// The words of an events table for people (UTF-8), computed per cell on demand: nothing is
// stored per row.

// "Start", "End", "Duration", "Name", ... in EventField order.
const char* eventFieldTitle(EventField field);
// Fields shown right-aligned (numbers and times).
bool eventFieldIsNumber(EventField field);
// The text of one cell; empty where the event has no such field. Start and End as
// formatTimestamp on the shared timeline, Duration as detailDuration (the Details panel's),
// bytes as detailBytes, Grid and Block as "x × y × z", Color as "#RRGGBB".
std::string eventCellText(const EventRows& rows, const SourcedEvent& event, EventField field);
// A time on the timeline in seconds with every nanosecond: "1.234567890 s", "-0.000001000 s".
std::string formatTimestamp(int64_t ns);
// The row label of a lane, as the timeline's row tree names it: "Stream 7" under "GPU 0" when
// the report has several GPUs ("GPU 0 · Stream 7"), "python [1234] · CUDA API" for a thread.
std::string laneLabel(const Report& report, uint32_t lane);

}  // namespace lanescope
