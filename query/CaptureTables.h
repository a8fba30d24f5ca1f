#pragma once
#include <memory>
#include <vector>

#include "model/Report.h"
#include "query/TableSpec.h"

namespace lanescope::sql {

// nsys's tables of what the capture itself kept: ProcessStreams and ANALYSIS_FILE (the files
// kept with the report, Report::process_streams: each launched process's standard output and
// error, a configuration file read) and META_DATA_CAPTURE (the capture settings,
// Report::capture_options), with the columns and row order of Nsight Systems 2025.3's export.
void addCaptureTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables);

}  // namespace lanescope::sql
