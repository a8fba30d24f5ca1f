#pragma once
#include <optional>
#include <string_view>
#include <vector>

#include "model/Report.h"
#include "model/StatsTable.h"
#include "model/TimeRange.h"

namespace lanescope {

// The summary reports of `nsys stats`, with its columns, units, rounding and row order
// (total descending; ties by name): cuda_gpu_kern_sum, cuda_api_sum, nvtx_sum,
// cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum, osrt_sum.
const std::vector<std::string_view>& statsReportNames();

// Computes one report over the events lying wholly inside `range`; nullopt for an unknown
// report name.
std::optional<StatsTable> computeStats(const Report& report, std::string_view name,
                                       TimeRange range = TimeRange::all());

// Every report of statsReportNames(), in that order, computed on up to `threads` threads.
std::vector<StatsTable> computeAllStats(const Report& report, TimeRange range = TimeRange::all(),
                                        unsigned threads = 2);

}  // namespace lanescope
