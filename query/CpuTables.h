#pragma once
#include <memory>
#include <vector>

#include "model/Report.h"
#include "query/TableSpec.h"

namespace lanescope::sql {

// nsys's tables of the threads' own events over a report: NVTX_EVENTS (push/pop ranges, start/end
// ranges and marks) and OSRT_API (OS runtime calls), with the columns of Nsight Systems
// 2025.3's export; a column the model does not hold is NULL (docs/sql.md says which).
void addCpuTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables);

}  // namespace lanescope::sql
