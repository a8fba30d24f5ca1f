#pragma once
#include <memory>
#include <vector>

#include "model/Report.h"
#include "query/TableSpec.h"

namespace lanescope::sql {

// nsys's tables of what the report is about: StringIds (the report's strings, id = Lanescope's
// string id, which every *Id / *Name column of the other tables refers to), ThreadNames,
// PROCESSES, TARGET_INFO_GPU and TARGET_INFO_SESSION_START_TIME.
void addReportTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables);

}  // namespace lanescope::sql
