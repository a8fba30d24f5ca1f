#pragma once
#include <memory>
#include <vector>

#include "model/Report.h"
#include "query/TableSpec.h"

namespace lanescope::sql {

// nsys's CUDA_GPU_MEMORY_USAGE_EVENTS over a report (Report::cuda_memory_events: every CUDA
// allocation and free recorded with --cuda-memory-usage), sorted by start, with the columns of
// Nsight Systems 2025.3's export; a column the model does not hold is NULL (docs/sql.md says
// which).
void addCudaMemoryTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables);

}  // namespace lanescope::sql
