// PyTorch's operators view: operators' CPU and device time, self and total, per name.
#include "analysis/pytorch/Operators.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "analysis/pytorch/LaunchedGpuTime.h"
#include "analysis/pytorch/ThreadNesting.h"

namespace lanescope {
bool operatorsAreNvtxRanges(const Report& report) {
    return report.meta.format != "kineto-json" && report.meta.format != "perfetto" &&
           report.strings.find(kPytorchOperatorLaneName) == UINT32_MAX;
}

std::string_view operatorName(std::string_view rangeText) {
    for (const std::string_view field : {", seq = ", ", op_id = ", ", sizes = "})
        rangeText = rangeText.substr(0, rangeText.find(field));
    return rangeText;
}

void forEachOperatorLane(const Report& report, const std::function<void(const OperatorLaneTimes&)>& visit) {
    const bool nvtx = operatorsAreNvtxRanges(report);
    const uint32_t laneName = report.strings.find(kPytorchOperatorLaneName);
    if (!nvtx && laneName == UINT32_MAX) return;
    const std::vector<int64_t> apiLaneOf = laneByThread(report, LaneKind::CudaApi);
    OperatorLaneTimes times;
    for (uint32_t l = 0; l < report.lanes.size(); ++l) {
        const Lane& lane = report.lanes[l];
        if (lane.kind != LaneKind::Nvtx || (nvtx ? lane.thread < 0 : lane.name_id != laneName)) continue;
        const IntervalColumns& ev = lane.events;
        const std::vector<uint32_t> parent = parentsByDepth(ev);
        times.lane = l;
        const int64_t apiLane = lane.thread >= 0 ? apiLaneOf[static_cast<size_t>(lane.thread)] : -1;
        times.deviceSelf = apiLane >= 0 ? launchedGpuSelfNs(report, lane, static_cast<uint32_t>(apiLane))
                                        : std::vector<int64_t>(ev.size(), 0);
        times.deviceTotal = withDescendants(parent, times.deviceSelf);
        times.cpuSelf.resize(ev.size());
        for (size_t i = 0; i < ev.size(); ++i) {  // a parent precedes its children
            times.cpuSelf[i] = ev.durationNs(i);
            if (parent[i] != kNoEvent) times.cpuSelf[parent[i]] -= times.cpuSelf[i];
        }
        visit(times);
    }
}

StatsTable pytorchOperators(const Report& report) {
    StatsTable table;
    table.name = "pytorch_operators";
    table.header = {"Name", "Calls", "CPU Total (ns)", "CPU Self (ns)", "Device Total (ns)", "Device Self (ns)"};
    // By operator name: views into the report's strings (a range's text up to emit_nvtx's fields).
    std::unordered_map<std::string_view, OperatorSums> byName;
    forEachOperatorLane(report, [&](const OperatorLaneTimes& times) {
        const IntervalColumns& ev = report.lanes[times.lane].events;
        for (size_t i = 0; i < ev.size(); ++i) {
            byName[operatorName(report.strings.str(ev.name_id[i]))].add(ev, i, times);
        }
    });

    std::vector<std::pair<std::string_view, OperatorSums>> rows;
    rows.reserve(byName.size());
    for (const auto& [name, sums] : byName) rows.emplace_back(name, sums);
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return a.second.cpuTotal != b.second.cpuTotal ? a.second.cpuTotal > b.second.cpuTotal : a.first < b.first;
    });
    for (const auto& [name, s] : rows)
        table.rows.push_back({std::string(name), s.calls, s.cpuTotal, s.cpuSelf, s.deviceTotal, s.deviceSelf});
    return table;
}

}  // namespace lanescope
