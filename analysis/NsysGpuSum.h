#pragma once
#include "analysis/StatsOptions.h"
#include "analysis/StatsTable.h"
#include "model/Report.h"
#include "model/TimeRange.h"

namespace lanescope {

// The `nsys stats` summaries of GPU work, over the events lying wholly inside `range`; rows
// sorted by total time (ns) descending, as nsys prints them. options.base names kernels by
// their short name.
// cuda_gpu_sum: kernels (by name) and memory operations (by operation), with a Category column.
StatsTable cudaGpuSum(const Report& report, TimeRange range, const StatsOptions& options = {});
// cuda_api_gpu_sum: the same plus the CUDA API calls (by displayed name), in one table.
StatsTable cudaApiGpuSum(const Report& report, TimeRange range, const StatsOptions& options = {});
// cuda_gpu_kern_gb_sum: kernels by (name, grid, block).
StatsTable cudaGpuKernGbSum(const Report& report, TimeRange range, const StatsOptions& options = {});

}  // namespace lanescope
