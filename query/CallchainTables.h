#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "model/Report.h"
#include "query/TableSpec.h"

namespace lanescope::sql {

// nsys's tables of CPU samples and call stacks over a report, with the columns of Nsight Systems
// 2025.3's export: COMPOSITE_EVENTS (the CPU samples), SAMPLING_CALLCHAINS (the frames of each
// sample's stack), OSRT_CALLCHAINS and CUDA_CALLCHAINS (the frames of the backtraces of OS runtime
// and CUDA API calls). A column the model does not hold is NULL (docs/sql.md says which).
void addCallchainTables(const Report& report, std::vector<std::unique_ptr<TableSpec>>& tables);

// The callchainId of call `event` of an OsRuntime or CudaApi lane (OSRT_API, CUPTI_ACTIVITY_KIND_RUNTIME):
// the id of its backtrace's frames in OSRT_CALLCHAINS or CUDA_CALLCHAINS, which is 1 + the
// backtrace's index in Report::backtraces; nullopt when the call has none. O(log backtraces).
std::optional<int64_t> callchainIdOf(const Report& report, const Lane& lane, uint32_t event);

}  // namespace lanescope::sql
