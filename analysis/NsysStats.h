#pragma once
#include "analysis/StatsOptions.h"
#include "analysis/StatsTable.h"
#include "model/Report.h"
#include "model/TimeRange.h"

namespace lanescope {

// The summary reports of `nsys stats`, with its columns, units, rounding and row order
// (total descending; ties by name), over the events lying wholly inside `range`. Found by
// name through analysis/Registry.h.
// options.base: kernels by their short names.
StatsTable cudaGpuKernSum(const Report& report, TimeRange range = TimeRange::all(), const StatsOptions& options = {});
StatsTable cudaApiSum(const Report& report, TimeRange range = TimeRange::all());
StatsTable nvtxSum(const Report& report, TimeRange range = TimeRange::all());
StatsTable cudaGpuMemTimeSum(const Report& report, TimeRange range = TimeRange::all());
StatsTable cudaGpuMemSizeSum(const Report& report, TimeRange range = TimeRange::all());
StatsTable osrtSum(const Report& report, TimeRange range = TimeRange::all());
// MPI calls by name (Source "other": calls without parameters, as the 2025.3 export's
// MPI_OTHER_EVENTS and the "MPI" NVTX domain of older captures record them).
StatsTable mpiEventSum(const Report& report, TimeRange range = TimeRange::all());
// OpenMP events by name (Time (%), Total Time, Count, Avg, Med, Min, Max, StdDev, Name), as nsys
// 2022.4's openmpevtsum prints them; task creations count with 0 ns.
StatsTable openmpSum(const Report& report, TimeRange range = TimeRange::all());

}  // namespace lanescope
