#pragma once
#include <memory>
#include <vector>

#include "model/Report.h"
#include "query/TableSpec.h"

namespace lanescope::sql {

// Lanescope's own tables over a report, named in lower case so that they never meet nsys's:
// lanes (the timeline's rows), slices (every interval event of every lane), instants, counters
// (every sample of every counter), diagnostics (what the import skipped or repaired) and report
// (one row: where the report came from, its span). docs/sql.md gives their columns.
void addLanescopeTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables);

}  // namespace lanescope::sql
