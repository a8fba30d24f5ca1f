#pragma once
#include <memory>
#include <vector>

#include "model/Report.h"
#include "query/TableSpec.h"

namespace lanescope::sql {

// nsys's CUDA tables over a report: CUPTI_ACTIVITY_KIND_KERNEL, _MEMCPY, _MEMSET,
// _SYNCHRONIZATION (the GPU's stream lanes) and _RUNTIME (the threads' CUDA API lanes), with
// the columns of Nsight Systems 2025.3's export; a column the model does not hold is NULL
// (docs/sql.md says which).
void addCudaTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables);

}  // namespace lanescope::sql
