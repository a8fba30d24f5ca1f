#include "analysis/NsysGpuSum.h"

#include <string>

#include "analysis/NsysStatsSupport.h"

namespace lanescope {
namespace {

using namespace nsysstats;

// GPU work (kernels by name, memory operations by operation name) into `grouper`, labelled
// (category, name) as cuda_gpu_sum and cuda_api_gpu_sum print them; durations in ns.
void addGpuWork(const Report& report, TimeRange range, const StatsOptions& options, Grouper& grouper) {
    forEachEvent(report, EventKind::Kernel, range, [&](const Lane& lane, size_t i) {
        const uint32_t nameId = kernelNameId(report, lane, i, options);
        grouper
            .at(uint64_t{nameId},
                [&] {
                    return std::vector<std::string>{"CUDA_KERNEL", std::string(report.str(nameId))};
                })
            .add(lane.events.durationNs(i));
    });
    for (EventKind kind : {EventKind::Memcpy, EventKind::Memset})
        forEachEvent(report, kind, range, [&](const Lane& lane, size_t i) {
            const uint32_t nameId = lane.events.name_id[i];
            grouper
                .at((uint64_t{1} << 32) | nameId,
                    [&] {
                        return std::vector<std::string>{"MEMORY_OPER", std::string(report.str(nameId))};
                    })
                .add(lane.events.durationNs(i));
        });
}

}  // namespace

StatsTable cudaGpuSum(const Report& report, TimeRange range, const StatsOptions& options) {
    Grouper grouper;
    addGpuWork(report, range, options, grouper);
    return timeTable("cuda_gpu_sum", "Instances", {"Category", "Operation"}, grouper.groups());
}

StatsTable cudaApiGpuSum(const Report& report, TimeRange range, const StatsOptions& options) {
    Grouper grouper;
    addGpuWork(report, range, options, grouper);
    // API calls by displayed name: unlike cuda_api_sum, nsys groups this report by the name it
    // prints, so "cudaLaunchKernel" and "cudaLaunchKernel_v7000" make one row.
    std::unordered_map<std::string, uint64_t> keyOfLabel;
    std::vector<uint64_t> keyOfName(report.strings.size(), 0);
    forEachEvent(report, EventKind::CudaApiCall, range, [&](const Lane& lane, size_t i) {
        const uint32_t nameId = lane.events.name_id[i];
        uint64_t& key = keyOfName[nameId];
        if (key == 0) {
            std::string label = apiDisplayName(report.str(nameId));
            key = keyOfLabel.try_emplace(std::move(label), (uint64_t{2} << 32) | nameId).first->second;
        }
        grouper.at(key,
                   [&] {
                       return std::vector<std::string>{"CUDA_API", apiDisplayName(report.str(nameId))};
                   })
            .add(lane.events.durationNs(i));
    });
    return timeTable("cuda_api_gpu_sum", "Instances", {"Category", "Operation"}, grouper.groups());
}

StatsTable cudaGpuKernGbSum(const Report& report, TimeRange range, const StatsOptions& options) {
    // Grouped by (name, grid, block): the key is a dense id per distinct printed triple, found
    // once per (configuration row, name id) pair; configurations that differ only in what is
    // not printed (registers, shared memory) share it.
    std::unordered_map<std::string, uint64_t> keyOfLabels;
    std::unordered_map<uint64_t, uint64_t> keyOfIds;  // (config row or UINT32_MAX) << 32 | name id
    Grouper grouper;
    forEachEvent(report, EventKind::Kernel, range, [&](const Lane& lane, size_t i) {
        const uint32_t nameId = kernelNameId(report, lane, i, options);
        const KernelConfig* c = kernelConfigOf(report, lane, i);
        const uint64_t configRow = c ? static_cast<uint64_t>(c - report.kernel_configs.data()) : UINT32_MAX;
        const auto [found, isNew] = keyOfIds.try_emplace(configRow << 32 | nameId, 0);
        std::vector<std::string> labels;
        if (isNew) {
            const KernelConfig config = c ? *c : KernelConfig{};
            labels = {xyz(config.grid[0], config.grid[1], config.grid[2]),
                      xyz(config.block[0], config.block[1], config.block[2]), std::string(report.str(nameId))};
            found->second = keyOfLabels.try_emplace(labels[0] + '\n' + labels[1] + '\n' + labels[2], keyOfLabels.size())
                                .first->second;
        }
        grouper.at(found->second, [&] { return std::move(labels); }).add(lane.events.durationNs(i));
    });
    return timeTable("cuda_gpu_kern_gb_sum", "Instances", {"GridXYZ", "BlockXYZ", "Name"}, grouper.groups());
}

}  // namespace lanescope
