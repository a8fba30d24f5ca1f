#pragma once
#include <memory>
#include <vector>

#include "model/Report.h"
#include "query/TableSpec.h"

namespace lanescope::sql {

// nsys's ENUM_ tables that the columns of Lanescope's tables refer to (ENUM_CUDA_MEMCPY_OPER for
// copyKind, ENUM_NSYS_EVENT_CLASS for eventClass, ...), each (id, name, label) sorted by id, the
// same for every report that has them; empty where nsys's export leaves the table out (the CUDA
// ones without CUDA, the thread-state ones without OS runtime calls, samples or scheduling).
void addEnumTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables);

}  // namespace lanescope::sql
