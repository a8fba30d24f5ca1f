#pragma once
#include <memory>
#include <vector>

#include "model/Report.h"
#include "query/TableSpec.h"

namespace lanescope::sql {

// nsys's GPU metric tables over a report's GPU-metric counters: GPU_METRICS (every sample) and
// TARGET_INFO_GPU_METRICS (each metric's ids and name), with the columns of Nsight Systems
// 2025.3's export. The model keeps no metric ids: they are numbered from the counters' order
// (docs/sql.md says how).
void addGpuMetricTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables);

}  // namespace lanescope::sql
