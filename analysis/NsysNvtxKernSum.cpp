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
// Launched by no call of the report (nsys's left join gives NULL PID and TID, listed first).
constexpr int64_t kNoCall = INT64_MIN;
constexpr uint32_t kNoCallLane = UINT32_MAX;

struct KernGroup {
    std::string range, style;
    int64_t pid = 0, tid = 0;  // kNoCall for kernels launched by no call
    std::string kernel;
    std::vector<int64_t> durations;
    std::vector<uint64_t> ranges;
    std::vector<uint64_t> kernels;
};

// A group while collecting, by ids: (domain name id, range name id) or none, the style
// (0 none, 1 push/pop, 2 start/end), the CUDA API lane (its process and thread), the kernel's
// name id. Ids whose labels print the same are merged afterwards, once per group.
struct GroupIds {
    uint32_t domain = 0, name = 0, api_lane = 0, kernel = 0;
    uint8_t style = 0;
    bool operator==(const GroupIds&) const = default;
};
struct GroupIdsHash {
    size_t operator()(const GroupIds& k) const {
        uint64_t h = (uint64_t{k.domain} << 32 | k.name) * 0x9E3779B97F4A7C15ull;
        h ^= ((uint64_t{k.api_lane} << 32 | k.kernel) + k.style) * 0xC2B2AE3D27D4EB4Full;
        return static_cast<size_t>(h ^ (h >> 29));
    }
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
    // nsys prints nothing for a report without any NVTX event (not even the kernels outside
    // every range, which it lists under an empty range when there are ranges elsewhere).
    const bool anyNvtx = !report.nvtx_other_starts_ns.empty() ||
                         std::any_of(report.lanes.begin(), report.lanes.end(), [](const Lane& l) {
                             return (l.kind == LaneKind::Nvtx || l.kind == LaneKind::NvtxStartEnd) &&
                                    l.events.size() + l.instants.size() > 0;
                         });
    if (!anyNvtx) return table;
    // Collected by ids (GroupIds), with no string work per event.
    std::vector<std::pair<GroupIds, KernGroup>> byIds;
    std::unordered_map<GroupIds, size_t, GroupIdsHash> groupOfIds;
    const CorrelationIndex& index = correlationIndex(report);
    auto add = [&](const GroupIds& ids, int64_t duration, uint64_t rangeRef, uint64_t kernelRef) {
        auto [it, inserted] = groupOfIds.try_emplace(ids, byIds.size());
        if (inserted) byIds.push_back({ids, {}});
        KernGroup& g = byIds[it->second].second;
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
            if ((i & 0xFFFF) == 0) cancellationPoint();
            if (calls.kind[i] != EventKind::CudaApiCall || !range.contains(calls.start_ns[i], calls.endNs(i))) continue;
            for (const EventRef op : index.launchedBy({li, i})) {
                const Lane& gpu = report.lanes[op.lane];
                const IntervalColumns& k = gpu.events;
                if (k.kind[op.index] != EventKind::Kernel || !range.contains(k.start_ns[op.index], k.endNs(op.index)))
                    continue;
                const uint32_t kernelName = kernelNameId(report, gpu, op.index, options);
                const int64_t duration = k.endNs(op.index) - k.start_ns[op.index];
                const uint64_t kernelRef = (uint64_t{op.lane} << 32) | op.index;
                bool enclosed = false;
                for (uint32_t nl : lanes) {
                    const Lane& nvtx = report.lanes[nl];
                    nvtxRangesContaining(nvtx, calls.start_ns[i], calls.endNs(i), [&](uint32_t r) {
                        enclosed = true;
                        const NvtxInfo info = nvtxInfoOf(report, nvtx, r);
                        add({info.domain_name_id, nvtx.events.name_id[r], li, kernelName,
                             static_cast<uint8_t>(info.start_end ? 2 : 1)},
                            duration, (uint64_t{nl} << 32) | r, kernelRef);
                    });
                }
                if (!enclosed) add({0, 0, li, kernelName, 0}, duration, UINT64_MAX, kernelRef);
            }
        }
    }
    // Kernels whose launching call the report does not hold (a PyTorch trace can miss some).
    for (uint32_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& gpu = report.lanes[li];
        if (gpu.kind != LaneKind::GpuStream) continue;
        const IntervalColumns& k = gpu.events;
        for (uint32_t i = 0; i < k.size(); ++i) {
            if (k.kind[i] != EventKind::Kernel || !range.contains(k.start_ns[i], k.endNs(i)) ||
                index.launcherOf({li, i}))
                continue;
            add({0, 0, kNoCallLane, kernelNameId(report, gpu, i, options), 0}, k.endNs(i) - k.start_ns[i], UINT64_MAX,
                (uint64_t{li} << 32) | i);
        }
    }
    // Groups by what they print: labels of different ids may print the same.
    std::vector<KernGroup> groups;
    std::unordered_map<std::string, size_t> groupOfKey;
    for (auto& [ids, collected] : byIds) {
        const bool called = ids.api_lane != kNoCallLane;
        const int64_t pid = called ? pidOf(report, report.lanes[ids.api_lane]) : kNoCall;
        const int64_t tid = called ? tidOf(report, report.lanes[ids.api_lane]) : kNoCall;
        const std::string label = ids.style ? nvtxLabel(report, NvtxInfo{0, ids.domain}, ids.name) : std::string();
        const char* style = ids.style == 0 ? "" : ids.style == 1 ? "PushPop" : "StartEnd";
        std::string kernel(report.str(ids.kernel));
        std::string key =
            label + '\n' + style + '\n' + std::to_string(pid) + '\n' + std::to_string(tid) + '\n' + kernel;
        auto [it, inserted] = groupOfKey.try_emplace(std::move(key), groups.size());
        if (inserted) {
            groups.push_back({label, style, pid, tid, std::move(kernel), std::move(collected.durations),
                              std::move(collected.ranges), std::move(collected.kernels)});
            continue;
        }
        KernGroup& g = groups[it->second];
        g.durations.insert(g.durations.end(), collected.durations.begin(), collected.durations.end());
        g.ranges.insert(g.ranges.end(), collected.ranges.begin(), collected.ranges.end());
        g.kernels.insert(g.kernels.end(), collected.kernels.begin(), collected.kernels.end());
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
        const auto idCell = [](int64_t id) {
            return id == kNoCall ? StatsTable::Cell{std::string()} : StatsTable::Cell{id};
        };
        table.rows.push_back({g.range, g.style, idCell(g.pid), idCell(g.tid), static_cast<int64_t>(r.instances),
                              static_cast<int64_t>(r.kernels), s.total, StatsTable::Real{s.mean, 1},
                              StatsTable::Real{s.median, 1}, s.min, s.max, StatsTable::Real{s.stddev, 1}, g.kernel});
    }
    return table;
}

}  // namespace lanescope
