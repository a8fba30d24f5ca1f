#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "model/Report.h"
#include "query/TableSpec.h"

namespace lanescope::sql {

// nsys's tables of CPU samples and call stacks over a report, with the columns of Nsight Systems
// 2025.3's export: COMPOSITE_EVENTS (the CPU samples), SAMPLING_CALLCHAINS (the frames of each
// sample's stack), OSRT_CALLCHAINS and CUDA_CALLCHAINS (the frames of the backtraces of OS runtime
// and CUDA API calls). A column the model does not hold is NULL (docs/sql.md says which).
void addCallchainTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables);

}  // namespace lanescope::sql
