#pragma once
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "model/Report.h"

namespace lanescope::python {

// The tables of Report.events(table): the events of one kind gathered from every lane that
// holds them. Interval tables take the events of `event` (all of them when unset) from the
// lanes of kind `lane`, or, when unset, from every lane that holds events of its own (not the
// NCCL lanes' copies): so "kernels" has as many rows as `info`'s counts["kernels"]. Instant
// tables take every instant of the lanes of kind `lane`.
struct EventTableSpec {
    enum class Columns : uint8_t { Intervals, Instants };
    std::string_view name;  // as events() takes it, and as `info` counts it where it does
    Columns columns;
    std::optional<LaneKind> lane;
    std::optional<EventKind> event;
};

// In the order the documentation lists them.
const std::vector<EventTableSpec>& eventTables();
const EventTableSpec* findEventTable(std::string_view name);

// The rows of one table held by one lane: all of its events (or instants), or the `rows` of them
// whose kind is the table's.
struct LanePart {
    uint32_t lane = 0;  // index into Report::lanes
    size_t rows = 0;    // at least 1
    bool whole = false;
};

// Where a table's rows are, lane by lane in Report::lanes order (lanes holding none left out).
// Reads every kind of the lanes of GPU work once (a byte an event).
std::vector<LanePart> tableParts(const Report& report, const EventTableSpec& table);

}  // namespace lanescope::python
