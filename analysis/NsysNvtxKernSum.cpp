#include "analysis/NsysNvtxKernSum.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <unordered_map>

#include "analysis/NsysStatsSupport.h"
#include "analysis/NvtxContaining.h"
#include "model/Correlation.h"

namespace lanescope {
namespace {

using namespace nsysstats;

// One output row while collecting: kernel durations (ns), one per (range instance, kernel)
// pair as nsys's join gives them (a kernel under two nested ranges of one name counts twice),
// and the range instances and kernels met, each as (lane << 32 | index), possibly repeated.
struct KernGroup {
    std::string range, style;
    int64_t pid = 0, tid = 0;
    std::string kernel;
    std::vector<int64_t> durations;
    std::vector<uint64_t> ranges;
    std::vector<uint64_t> kernels;
};

}  // namespace

StatsTable nvtxKernSum(const Report& report, TimeRange range, const StatsOptions& options) {
    StatsTable table;
    table.name = "nvtx_kern_sum";
    table.header = {"NVTX Range", "Style",    "PID",      "TID",      "NVTX Inst",   "Kern Inst",  "Total Time (ns)",
                    "Avg (ns)",   "Med (ns)", "Min (ns)", "Max (ns)", "StdDev (ns)", "Kernel Name"};
    // The NVTX lanes of each thread.
    std::vector<std::vector<uint32_t>> nvtxLanes(report.threads.size());
    for (uint32_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& lane = report.lanes[li];
        if ((lane.kind == LaneKind::Nvtx || lane.kind == LaneKind::NvtxStartEnd) && lane.thread >= 0 &&
            static_cast<size_t>(lane.thread) < report.threads.size())
            nvtxLanes[static_cast<size_t>(lane.thread)].push_back(li);
    }
    std::vector<KernGroup> groups;
    // (range lane or UINT32_MAX, range name id, kernel name id, API lane) -> group; labels of
    // different ids may print the same, so a second map goes by the printed key.
    std::unordered_map<std::string, size_t> groupOfKey;
    const CorrelationIndex& index = correlationIndex(report);
    auto add = [&](const Lane& api, const std::string& label, const char* style, uint32_t kernelName, int64_t duration,
                   uint64_t rangeRef, uint64_t kernelRef) {
        const int64_t pid = pidOf(report, api), tid = tidOf(report, api);
        std::string kernel(report.str(kernelName));
        std::string key =
            label + '\n' + style + '\n' + std::to_string(pid) + '\n' + std::to_string(tid) + '\n' + kernel;
        auto [it, inserted] = groupOfKey.try_emplace(std::move(key), groups.size());
        if (inserted) groups.push_back({label, style, pid, tid, std::move(kernel), {}, {}, {}});
        KernGroup& g = groups[it->second];
        g.durations.push_back(duration);
        if (rangeRef != UINT64_MAX) g.ranges.push_back(rangeRef);
        g.kernels.push_back(kernelRef);
    };
    for (uint32_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& api = report.lanes[li];
        if (api.kind != LaneKind::CudaApi) continue;
        const std::vector<uint32_t> noLanes;
        const std::vector<uint32_t>& lanes =
            api.thread >= 0 && static_cast<size_t>(api.thread) < nvtxLanes.size() ? nvtxLanes[api.thread] : noLanes;
        const IntervalColumns& calls = api.events;
        for (uint32_t i = 0; i < calls.size(); ++i) {
            if (calls.kind[i] != EventKind::CudaApiCall || !range.contains(calls.start_ns[i], calls.end_ns[i]))
                continue;
            for (const EventRef op : index.launchedBy({li, i})) {
                const Lane& gpu = report.lanes[op.lane];
                const IntervalColumns& k = gpu.events;
                if (k.kind[op.index] != EventKind::Kernel || !range.contains(k.start_ns[op.index], k.end_ns[op.index]))
                    continue;
                const uint32_t kernelName = kernelNameId(report, gpu, op.index, options);
                const int64_t duration = k.end_ns[op.index] - k.start_ns[op.index];
                const uint64_t kernelRef = (uint64_t{op.lane} << 32) | op.index;
                bool enclosed = false;
                for (uint32_t nl : lanes) {
                    const Lane& nvtx = report.lanes[nl];
                    nvtxRangesContaining(nvtx, calls.start_ns[i], calls.end_ns[i], [&](uint32_t r) {
                        enclosed = true;
                        const NvtxInfo info = nvtxInfoOf(report, nvtx, r);
                        add(api, nvtxLabel(report, info, nvtx.events.name_id[r]),
                            info.start_end ? "StartEnd" : "PushPop", kernelName, duration, (uint64_t{nl} << 32) | r,
                            kernelRef);
                    });
                }
                if (!enclosed) add(api, std::string(), "", kernelName, duration, UINT64_MAX, kernelRef);
            }
        }
    }

    struct Row {
        Summary s;
        size_t instances, kernels;
        KernGroup* g;
    };
    std::vector<Row> rows;
    rows.reserve(groups.size());
    for (KernGroup& g : groups) {
        const auto distinct = [](std::vector<uint64_t>& v) {
            std::sort(v.begin(), v.end());
            return static_cast<size_t>(std::unique(v.begin(), v.end()) - v.begin());
        };
        rows.push_back({summarize(g.durations), distinct(g.ranges), distinct(g.kernels), &g});
    }
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        const KernGroup &x = *a.g, &y = *b.g;
        if (std::tie(x.range, x.style, x.pid, x.tid) != std::tie(y.range, y.style, y.pid, y.tid))
            return std::tie(x.range, x.style, x.pid, x.tid) < std::tie(y.range, y.style, y.pid, y.tid);
        if (a.s.total != b.s.total) return a.s.total > b.s.total;
        return x.kernel < y.kernel;
    });
    for (const Row& r : rows) {
        const Summary& s = r.s;
        const KernGroup& g = *r.g;
        table.rows.push_back({g.range, g.style, g.pid, g.tid, static_cast<int64_t>(r.instances),
                              static_cast<int64_t>(r.kernels), s.total, StatsTable::Real{s.mean, 1},
                              StatsTable::Real{s.median, 1}, s.min, s.max, StatsTable::Real{s.stddev, 1}, g.kernel});
    }
    return table;
}

}  // namespace lanescope
