#include "analysis/Registry.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "analysis/GpuGaps.h"
#include "analysis/GpuUtilization.h"
#include "analysis/NsysStats.h"
#include "analysis/NvtxProjection.h"

namespace lanescope {

const std::vector<StatsReportEntry>& statsReports() {
    static const std::vector<StatsReportEntry> all = {
        {"cuda_gpu_kern_sum", "Kernels", cudaGpuKernSum},
        {"cuda_api_sum", "CUDA API", cudaApiSum},
        {"cuda_gpu_mem_time_sum", "Memory (time)", cudaGpuMemTimeSum},
        {"cuda_gpu_mem_size_sum", "Memory (size)", cudaGpuMemSizeSum},
        {"nvtx_sum", "NVTX", nvtxSum},
        {"osrt_sum", "OS runtime", osrtSum},
        {"nvtx_gpu_proj_sum", "NVTX on GPU", nvtxGpuProjSumInRange},
    };
    return all;
}

const StatsReportEntry* findStatsReport(std::string_view name) {
    const auto& all = statsReports();
    auto it = std::find_if(all.begin(), all.end(), [&](const StatsReportEntry& e) { return e.name == name; });
    return it == all.end() ? nullptr : &*it;
}

const std::vector<RuleEntry>& rules() {
    static const std::vector<RuleEntry> all = {
        {"cuda_api_sync", "Synchronous CUDA API calls", cudaApiSyncResult},
        {"cuda_memcpy_async", "Pageable async memcpy", cudaMemcpyAsyncResult},
        {"cuda_memcpy_sync", "Synchronous memcpy", cudaMemcpySyncResult},
        {"cuda_memset_sync", "Synchronous memset", cudaMemsetSyncResult},
        {"gpu_time_util", "GPU time utilization", gpuTimeUtilResult},
        {"gpu_gaps", "GPU gaps", gpuGapsResult},
    };
    return all;
}

const RuleEntry* findRule(std::string_view name) {
    const auto& all = rules();
    auto it = std::find_if(all.begin(), all.end(), [&](const RuleEntry& e) { return e.name == name; });
    return it == all.end() ? nullptr : &*it;
}

std::optional<StatsTable> computeStats(const Report& report, std::string_view name, TimeRange range) {
    const StatsReportEntry* entry = findStatsReport(name);
    if (!entry) return std::nullopt;
    return entry->compute(report, range);
}

std::vector<StatsTable> computeAllStats(const Report& report, TimeRange range, unsigned threads) {
    const auto& all = statsReports();
    std::vector<StatsTable> tables(all.size());
    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t i; (i = next.fetch_add(1)) < all.size();) tables[i] = all[i].compute(report, range);
    };
    {
        std::vector<std::jthread> pool;
        for (unsigned t = 1; t < std::max(1u, threads); ++t) pool.emplace_back(work);
        work();
    }
    return tables;
}

}  // namespace lanescope
