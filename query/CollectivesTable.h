#pragma once
#include <memory>
#include <vector>

#include "model/Report.h"
#include "query/TableSpec.h"

namespace lanescope::sql {

// COLLECTIVES: every NCCL collective of the report with its size and bandwidths (analysis/
// communication, docs/analyses.md "Communication"), a row per NCCL kernel in start order,
// computed when a query first plans over it. docs/sql.md gives its columns.
void addCollectivesTable(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables);

}  // namespace lanescope::sql
