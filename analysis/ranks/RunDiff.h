#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/StatsTable.h"
#include "model/Report.h"

namespace lanescope {

// One name compared between a baseline and a candidate run. Times in ns.
struct DiffRow {
    std::string category;  // "kernel", "cuda_api", "nvtx"
    std::string name;      // as `nsys stats` names it (cuda_gpu_kern_sum, cuda_api_sum, nvtx_sum)
    uint64_t base_count = 0, cand_count = 0;
    int64_t base_total_ns = 0, cand_total_ns = 0;

    double baseMean() const { return base_count ? double(base_total_ns) / double(base_count) : 0.0; }
    double candMean() const { return cand_count ? double(cand_total_ns) / double(cand_count) : 0.0; }
    int64_t delta() const { return cand_total_ns - base_total_ns; }
    bool hasRatio() const { return base_total_ns != 0; }
    // cand / base total; only when hasRatio() (a new name has none).
    double ratio() const { return hasRatio() ? double(cand_total_ns) / double(base_total_ns) : 0.0; }
    // "added" (only in the candidate), "removed" (only in the baseline), "changed", "same".
    const char* status() const;
};

// Every kernel, CUDA API and NVTX name of either run, sorted by the absolute change of total
// time, largest first (ties: category, then name). Built on the nsys stats summaries.
std::vector<DiffRow> diffRuns(const Report& baseline, const Report& candidate);

// As a table: Category, Name, Base Count, Base Total (ns), Base Avg (ns), Cand Count,
// Cand Total (ns), Cand Avg (ns), Delta (ns), Ratio (empty text without a baseline), Status.
StatsTable diffTable(const std::vector<DiffRow>& rows);

}  // namespace lanescope
