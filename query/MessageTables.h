#pragma once
#include <memory>
#include <vector>

#include "model/Report.h"
#include "query/TableSpec.h"

namespace lanescope::sql {

// nsys's tables of the profiler's own doings over a report: DIAGNOSTIC_EVENT (its messages,
// Report::nsys_messages) and PROFILER_OVERHEAD (the time it kept a thread busy,
// Report::profiler_overhead), with the columns of Nsight Systems 2025.3's export; a column the
// model does not hold is NULL (docs/sql.md says which).
void addMessageTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables);

}  // namespace lanescope::sql
