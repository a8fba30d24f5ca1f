#pragma once
#include <memory>
#include <vector>

#include "model/Report.h"
#include "query/TableSpec.h"

namespace lanescope::sql {

// nsys's SCHED_EVENTS over a report: the context switches (each thread switched in and out of a
// core), with the columns of Nsight Systems 2025.3's export: in the file's order from the CPU core
// lanes when the report keeps it (SchedFileOrderTable.h), else rebuilt from the threads'
// ThreadState lanes, thread by thread; a column the model does not hold is NULL (docs/sql.md says
// which).
void addSchedTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables);

}  // namespace lanescope::sql
