#pragma once
#include <memory>
#include <vector>

#include "model/Report.h"
#include "query/TableSpec.h"

namespace lanescope::sql {

// nsys's MPI tables over a report, with the columns of Nsight Systems 2025.3's export: the
// threads' MPI calls (their Mpi lanes) as MPI_OTHER_EVENTS, the table that export gives calls
// recorded without their parameters, which is all the model keeps of a call (docs/sql.md).
void addMpiTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables);

}  // namespace lanescope::sql
