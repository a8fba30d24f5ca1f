#pragma once
#include <memory>

#include "model/Report.h"
#include "query/TableSpec.h"

namespace lanescope::sql {

// SCHED_EVENTS of a report that keeps its context switches' file order (Report::file_order.sched,
// an Nsight Systems report), in that order: a segment per run of one core's switches, whose rows
// are the switch-in and switch-out of each CoreRun event of the core's lane, so in time order.
// The columns as SchedTables.h gives them; `cpu` (the core) is a segment column.
std::unique_ptr<TableSpec> schedTableInFileOrder(const Report& report);

}  // namespace lanescope::sql
