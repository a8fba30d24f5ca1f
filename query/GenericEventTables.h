#pragma once
#include <memory>
#include <vector>

#include "model/Report.h"
#include "query/TableSpec.h"

namespace lanescope::sql {

// nsys's GENERIC_EVENT_SOURCES, GENERIC_EVENT_TYPES and GENERIC_EVENT_TYPE_FIELDS: the schema of
// the report's generic events (Report::generic_event_*; GPU metrics are such events), with the
// columns of Nsight Systems 2025.3's export. The hypervisor, ftrace and ETW columns and the JSON
// descriptions are NULL (docs/sql.md).
void addGenericEventTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables);

}  // namespace lanescope::sql
