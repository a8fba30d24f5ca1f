#pragma once
#include <memory>
#include <vector>

#include "model/Report.h"
#include "query/TableSpec.h"

namespace lanescope::sql {

// nsys's tables of CUDA graphs and event records over a report: CUPTI_ACTIVITY_KIND_GRAPH_TRACE
// (graphs traced as a whole, on their stream lanes), CUPTI_ACTIVITY_KIND_CUDA_EVENT (the event
// records of the stream lanes), CUDA_GRAPH_EVENTS and CUDA_GRAPH_NODE_EVENTS (the graphs' and
// nodes' CPU-side life, Report::graph_api_events), with the columns of Nsight Systems 2025.3's
// export; a column the model does not hold is NULL (docs/sql.md says which).
void addCudaExtraTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables);

}  // namespace lanescope::sql
