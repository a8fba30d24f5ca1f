#include "analysis/NsysStats.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "analysis/NsysStatsSupport.h"

namespace lanescope {
namespace {

using namespace nsysstats;

// Groups the durations of every event of `kind` by its recorded name, as nsys groups by
// name id: CUDA API calls recorded as "cudaLaunchKernel" and "cudaLaunchKernel_v7000" stay two
// rows, though both print "cudaLaunchKernel" (see apiDisplayName).
std::vector<Group> durationsByName(const Report& report, EventKind kind, TimeRange range,
                                   const StatsOptions& options = {}) {
    Grouper grouper;
    forEachEvent(report, kind, range, [&](const Lane& lane, size_t i) {
        const uint32_t nameId =
            kind == EventKind::Kernel ? kernelNameId(report, lane, i, options) : lane.events.name_id[i];
        grouper
            .atStringId(nameId,
                        [&] {
                            const std::string_view name = report.str(nameId);
                            return std::vector<std::string>{kind == EventKind::CudaApiCall ? apiDisplayName(name)
                                                                                           : std::string(name)};
                        })
            .add(lane.events.durationNs(i));
    });
    return std::move(grouper.groups());
}

StatsTable nvtxSumOf(const Report& report, TimeRange range) {
    Grouper grouper;
    forEachEvent(report, EventKind::NvtxRange, range, [&](const Lane& lane, size_t i) {
        const uint32_t nameId = lane.events.name_id[i];
        const uint32_t row = lane.events.payload[i];
        const NvtxInfo info = row < report.nvtx.size() ? report.nvtx[row] : NvtxInfo{};
        const uint64_t key = (uint64_t{info.domain_name_id} << 33) | (uint64_t{info.start_end} << 32) | nameId;
        grouper
            .at(key,
                [&] {
                    return std::vector<std::string>{
                        info.start_end ? "StartEnd" : "PushPop",
                        std::string(report.str(info.domain_name_id)) + ":" + std::string(report.str(nameId))};
                })
            .add(lane.events.durationNs(i));
    });
    return timeTable("nvtx_sum", "Instances", {"Style", "Range"}, grouper.groups());
}

// Memory operations (memcpy by direction, memset) grouped by their operation name.
std::vector<Group> memoryOps(const Report& report, TimeRange range, bool bySize) {
    Grouper grouper;
    auto add = [&](const Lane& lane, size_t i, int64_t value) {
        const uint32_t nameId = lane.events.name_id[i];
        grouper.atStringId(nameId, [&] { return std::vector<std::string>{std::string(report.str(nameId))}; })
            .add(value);
    };
    forEachEvent(report, EventKind::Memcpy, range, [&](const Lane& lane, size_t i) {
        const auto bytes = static_cast<int64_t>(report.memcpys[lane.events.payload[i]].bytes);
        add(lane, i, bySize ? bytes : lane.events.durationNs(i));
    });
    forEachEvent(report, EventKind::Memset, range, [&](const Lane& lane, size_t i) {
        const auto bytes = static_cast<int64_t>(report.memsets[lane.events.payload[i]].bytes);
        add(lane, i, bySize ? bytes : lane.events.durationNs(i));
    });
    return std::move(grouper.groups());
}

StatsTable memSizeSumOf(const Report& report, TimeRange range) {
    auto groups = memoryOps(report, range, true);
    StatsTable table;
    table.name = "cuda_gpu_mem_size_sum";
    table.header = {"Total (MB)", "Count", "Avg (MB)", "Med (MB)", "Min (MB)", "Max (MB)", "StdDev (MB)", "Operation"};
    constexpr double kMB = 1e6;
    for (const auto& r : summarizeGroups(groups)) {
        const Summary& s = r.summary;
        table.rows.push_back({StatsTable::Real{s.total / kMB, 3}, static_cast<int64_t>(s.count),
                              StatsTable::Real{s.mean / kMB, 3}, StatsTable::Real{s.median / kMB, 3},
                              StatsTable::Real{s.min / kMB, 3}, StatsTable::Real{s.max / kMB, 3},
                              StatsTable::Real{s.stddev / kMB, 3}, r.labels.front()});
    }
    return table;
}

}  // namespace

StatsTable cudaGpuKernSum(const Report& report, TimeRange range, const StatsOptions& options) {
    auto groups = durationsByName(report, EventKind::Kernel, range, options);
    return timeTable("cuda_gpu_kern_sum", "Instances", {"Name"}, groups);
}

StatsTable cudaApiSum(const Report& report, TimeRange range) {
    auto groups = durationsByName(report, EventKind::CudaApiCall, range);
    return timeTable("cuda_api_sum", "Num Calls", {"Name"}, groups);
}

StatsTable osrtSum(const Report& report, TimeRange range) {
    auto groups = durationsByName(report, EventKind::OsRuntimeCall, range);
    return timeTable("osrt_sum", "Num Calls", {"Name"}, groups);
}

StatsTable mpiEventSum(const Report& report, TimeRange range) {
    // Every MPI call the model holds is one without parameters (nsys's "other" source).
    auto groups = durationsByName(report, EventKind::MpiCall, range);
    for (Group& g : groups) g.labels.insert(g.labels.begin(), "other");
    return timeTable("mpi_event_sum", "Instances", {"Source", "Name"}, groups);
}

StatsTable openmpSum(const Report& report, TimeRange range) {
    // Task creations have no duration and count with 0 ns, as nsys counts them.
    auto groups = durationsByName(report, EventKind::OpenMpEvent, range);
    return timeTable("openmp_sum", "Count", {"Name"}, groups);
}

StatsTable cudaGpuMemTimeSum(const Report& report, TimeRange range) {
    auto groups = memoryOps(report, range, false);
    return timeTable("cuda_gpu_mem_time_sum", "Count", {"Operation"}, groups);
}

StatsTable cudaGpuMemSizeSum(const Report& report, TimeRange range) { return memSizeSumOf(report, range); }

StatsTable nvtxSum(const Report& report, TimeRange range) { return nvtxSumOf(report, range); }

}  // namespace lanescope
