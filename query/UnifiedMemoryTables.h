#pragma once
#include <memory>
#include <vector>

#include "model/Report.h"
#include "query/TableSpec.h"

namespace lanescope::sql {

// nsys's unified-memory page fault tables over a report: CUDA_UM_GPU_PAGE_FAULT_EVENTS (the
// UnifiedMemory lanes' intervals) and CUDA_UM_CPU_PAGE_FAULT_EVENTS (the UmCpuPageFaults lanes'
// instants), with the columns of Nsight Systems 2025.3's export; a column the model does not
// hold is NULL (docs/sql.md says which).
void addUnifiedMemoryTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables);

}  // namespace lanescope::sql
