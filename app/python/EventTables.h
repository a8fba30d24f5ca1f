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

// The lanes that may hold a table's rows, in Report::lanes order: the lanes of its kind `lane`,
// or, when unset, every lane holding events of its own (not the NCCL and NVTX-on-GPU copies).
// A lane of GPU work holds kernels, memcpys and memsets: the table takes those of its kind.
std::vector<uint32_t> tableLanes(const Report& report, const EventTableSpec& table);

}  // namespace lanescope::python
