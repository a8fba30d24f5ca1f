#include "analysis/Registry.h"

#include <algorithm>
#include <atomic>
#include <string>
#include <utility>

#include "analysis/Cancellation.h"
#include "analysis/GpuGaps.h"
#include "analysis/GpuUtilization.h"
#include "analysis/NsysCudaApiTrace.h"
#include "analysis/NsysGpuSum.h"
#include "analysis/NsysKernelExec.h"
#include "analysis/NsysNoModelData.h"
#include "analysis/NsysNvtxKernSum.h"
#include "analysis/NsysNvtxStyleSum.h"
#include "analysis/NsysNvtxTraces.h"
#include "analysis/NsysStats.h"
#include "analysis/NsysTraceReports.h"
#include "analysis/NsysUnifiedMemory.h"
#include "analysis/NvtxProjection.h"

namespace lanescope {

const std::vector<StatsReportEntry>& statsReports() {
    // A report of (report, range), which takes no option.
#define LANESCOPE_PLAIN(f) +[](const Report& r, TimeRange t, const StatsOptions&) { return f(r, t); }
    static const std::vector<StatsReportEntry> all = {
        {"cuda_gpu_kern_sum", "Kernels", cudaGpuKernSum, "base"},
        {"cuda_api_sum", "CUDA API", LANESCOPE_PLAIN(cudaApiSum)},
        {"cuda_gpu_mem_time_sum", "Memory (time)", LANESCOPE_PLAIN(cudaGpuMemTimeSum)},
        {"cuda_gpu_mem_size_sum", "Memory (size)", LANESCOPE_PLAIN(cudaGpuMemSizeSum)},
        {"nvtx_sum", "NVTX", LANESCOPE_PLAIN(nvtxSum)},
        {"osrt_sum", "OS runtime", LANESCOPE_PLAIN(osrtSum)},
        {"nvtx_gpu_proj_sum", "NVTX on GPU", LANESCOPE_PLAIN(nvtxGpuProjSumInRange)},
        {"cuda_gpu_sum", "GPU work", cudaGpuSum, "base"},
        {"cuda_api_gpu_sum", "CUDA API and GPU work", cudaApiGpuSum, "base"},
        {"cuda_gpu_kern_gb_sum", "Kernels by grid and block", cudaGpuKernGbSum, "base"},
        {"cuda_kern_exec_sum", "Kernel launch and execution", cudaKernExecSum, "base"},
        {"cuda_kern_exec_trace", "Kernel launch and execution (trace)", cudaKernExecTrace, "base"},
        {"cuda_gpu_trace", "GPU trace", cudaGpuTrace, "base"},
        {"nvtx_pushpop_sum", "NVTX push/pop", LANESCOPE_PLAIN(nvtxPushPopSum)},
        {"nvtx_pushpop_trace", "NVTX push/pop (trace)", nvtxPushPopTrace},
        {"nvtx_gpu_proj_trace", "NVTX on GPU (trace)", nvtxGpuProjTrace},
        {"nvtx_kern_sum", "NVTX ranges by kernel", nvtxKernSum, "base"},
        {"cuda_api_trace", "CUDA API (trace)", cudaApiTrace},
        {"nvtx_startend_sum", "NVTX start/end", LANESCOPE_PLAIN(nvtxStartEndSum)},
        {"mpi_event_sum", "MPI events", LANESCOPE_PLAIN(mpiEventSum)},
        {"mpi_event_trace", "MPI events (trace)", LANESCOPE_PLAIN(mpiEventTrace)},
        {"mpi_msg_size_sum", "MPI message sizes", LANESCOPE_PLAIN(mpiMsgSizeSum)},
        {"openacc_sum", "OpenACC", LANESCOPE_PLAIN(openaccSum)},
        {"openmp_sum", "OpenMP", LANESCOPE_PLAIN(openmpSum)},
        {"syscall_sum", "System calls", LANESCOPE_PLAIN(syscallSum)},
        {"um_cpu_page_faults_sum", "Unified memory CPU page faults", umCpuPageFaultsSum, "rows"},
        {"um_sum", "Unified memory", umSum, "rows"},
        {"um_total_sum", "Unified memory totals", LANESCOPE_PLAIN(umTotalSum)},
    };
#undef LANESCOPE_PLAIN
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

StatsRequest parseStatsRequest(std::string_view nameWithOptions) {
    StatsRequest request;
    const size_t colon = nameWithOptions.find(':');
    const std::string_view name = nameWithOptions.substr(0, colon);
    request.entry = findStatsReport(name);
    if (!request.entry) {
        request.error = "unknown report " + std::string(name);
        return request;
    }
    for (size_t at = colon; at != std::string_view::npos && request.error.empty();) {
        const size_t next = nameWithOptions.find(':', at + 1);
        const std::string_view option =
            nameWithOptions.substr(at + 1, next == std::string_view::npos ? next : next - at - 1);
        request.error = parseStatsOption(option, request.entry->options, request.options);
        if (!request.error.empty()) request.error = std::string(name) + ": " + request.error;
        at = next;
    }
    return request;
}

std::optional<StatsTable> computeStats(const Report& report, std::string_view name, TimeRange range) {
    const StatsRequest request = parseStatsRequest(name);
    if (!request.entry || !request.error.empty()) return std::nullopt;
    return request.entry->compute(report, range, request.options);
}

std::vector<std::optional<StatsTable>> computeSomeStats(const Report& report, TimeRange range,
                                                        const std::vector<bool>& wanted, unsigned threads,
                                                        const StatsOptions& options) {
    const auto& all = statsReports();
    std::vector<std::optional<StatsTable>> tables(all.size());
    std::atomic<size_t> next{0};
    runOnThreads(threads, [&] {
        for (size_t i; (i = next.fetch_add(1)) < all.size();)
            if (i < wanted.size() && wanted[i]) tables[i] = all[i].compute(report, range, options);
    });
    return tables;
}

bool writeStatsCsv(const StatsReportEntry& entry, const Report& report, TimeRange range, StatsOptions options,
                   const std::function<bool(std::string_view text)>& write) {
    std::string pending;
    bool header = false, written = true;
    options.on_trace_row = [&](const StatsTable& table, std::vector<StatsTable::Cell>&& row) {
        if (!std::exchange(header, true)) pending += csvLine(table.header);
        pending += csvLine(row);
        if (pending.size() > (size_t{4} << 20)) written = written && write(std::exchange(pending, {}));
    };
    pending += toCsv(entry.compute(report, range, options));  // a summary's rows
    return written && write(pending);
}

std::vector<StatsTable> computeAllStats(const Report& report, TimeRange range, unsigned threads) {
    const auto& all = statsReports();
    std::vector<StatsTable> tables(all.size());
    std::atomic<size_t> next{0};
    runOnThreads(threads, [&] {
        for (size_t i; (i = next.fetch_add(1)) < all.size();) tables[i] = all[i].compute(report, range, {});
    });
    return tables;
}

}  // namespace lanescope
