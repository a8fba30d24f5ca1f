#pragma once
#include <memory>
#include <vector>

#include "model/Report.h"
#include "query/TableSpec.h"

namespace lanescope::sql {

// CRITICAL_PATH: the whole report's critical path (analysis/critical_path, docs/analyses.md), a row
// per segment in time order, computed when a query first plans over it. docs/sql.md gives its columns.
void addCriticalPathTable(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables);

}  // namespace lanescope::sql
