// PyTorch's operators view: operators' CPU and device time, self and total, per name.
#include "analysis/pytorch/Operators.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "model/Correlation.h"

namespace lanescope {
namespace {

constexpr uint32_t kNoParent = UINT32_MAX;

// One operator name's sums over its instances, in nanoseconds.
struct OperatorSums {
    int64_t calls = 0, cpuTotal = 0, cpuSelf = 0, deviceTotal = 0, deviceSelf = 0;
};

// The GPU time (ns) of the work a CUDA API call launched: kernels, memcpys and memsets.
int64_t launchedGpuNs(const Report& report, const CorrelationIndex& correlation, EventRef call,
                      CorrelationIndex::Cursor& cursor) {
    int64_t ns = 0;
    correlation.forEachLaunched(call, cursor, [&](EventRef op) {
        const IntervalColumns& ev = report.lanes[op.lane].events;
        if (ev.kind[op.index] != EventKind::GraphExecution) ns += ev.durationNs(op.index);
    });
    return ns;
}

// Adds each operator's launched GPU time to deviceSelf (indexed by operator event): a call
// counts for the innermost operator that contains it [start, end]. Both lanes are in start
// order; `chain` holds the operators open at a call, outermost first.
void addDeviceSelf(const Report& report, const Lane& ops, const Lane& calls, std::vector<int64_t>& deviceSelf) {
    const CorrelationIndex& correlation = correlationIndex(report);
    CorrelationIndex::Cursor cursor;
    const auto callLane = static_cast<uint32_t>(&calls - report.lanes.data());
    std::vector<uint32_t> chain;
    size_t next = 0;
    for (uint32_t c = 0; c < calls.events.size(); ++c) {
        const int64_t start = calls.events.start_ns[c], end = calls.events.endNs(c);
        for (; next < ops.events.size() && ops.events.start_ns[next] <= start; ++next) {
            chain.resize(std::min<size_t>(ops.events.depth[next], chain.size()));
            chain.push_back(static_cast<uint32_t>(next));
        }
        auto inner =
            std::find_if(chain.rbegin(), chain.rend(), [&](uint32_t op) { return ops.events.endNs(op) >= end; });
        if (inner == chain.rend()) continue;
        deviceSelf[*inner] += launchedGpuNs(report, correlation, {callLane, c}, cursor);
    }
}

}  // namespace

StatsTable pytorchOperators(const Report& report) {
    StatsTable table;
    table.name = "pytorch_operators";
    table.header = {"Name", "Calls", "CPU Total (ns)", "CPU Self (ns)", "Device Total (ns)", "Device Self (ns)"};
    const uint32_t laneName = report.strings.find(kPytorchOperatorLaneName);
    if (laneName == UINT32_MAX) return table;

    // Each thread's CUDA API lane (index into Report::lanes), by thread index; -1 without one.
    std::vector<int64_t> apiLaneOf(report.threads.size(), -1);
    for (size_t l = 0; l < report.lanes.size(); ++l)
        if (report.lanes[l].kind == LaneKind::CudaApi && report.lanes[l].thread >= 0)
            apiLaneOf[static_cast<size_t>(report.lanes[l].thread)] = static_cast<int64_t>(l);

    std::unordered_map<uint32_t, OperatorSums> byName;  // by name string id
    // Per operator event of one lane, by event index: its parent, its children's CPU time and
    // its device time (ns), self then total.
    std::vector<uint32_t> parent;
    std::vector<int64_t> childrenCpu, deviceSelf, deviceTotal;
    std::vector<uint32_t> open;  // the latest operator at each depth, outermost first
    for (const Lane& lane : report.lanes) {
        if (lane.kind != LaneKind::Nvtx || lane.name_id != laneName) continue;
        const IntervalColumns& ev = lane.events;
        const size_t n = ev.size();
        parent.assign(n, kNoParent);
        childrenCpu.assign(n, 0);
        deviceSelf.assign(n, 0);
        open.clear();
        // Events are in start order, parents first; a parent is the latest event one depth up.
        for (size_t i = 0; i < n; ++i) {
            open.resize(std::min<size_t>(ev.depth[i], open.size()));
            if (!open.empty()) parent[i] = open.back();
            open.push_back(static_cast<uint32_t>(i));
        }
        if (lane.thread >= 0 && apiLaneOf[static_cast<size_t>(lane.thread)] >= 0)
            addDeviceSelf(report, lane, report.lanes[static_cast<size_t>(apiLaneOf[static_cast<size_t>(lane.thread)])],
                          deviceSelf);
        deviceTotal = deviceSelf;
        // Children follow their parents: from the last event back, each is complete when reached.
        for (size_t i = n; i-- > 0;) {
            const int64_t duration = ev.durationNs(i);
            if (parent[i] != kNoParent) {
                childrenCpu[parent[i]] += duration;
                deviceTotal[parent[i]] += deviceTotal[i];
            }
            OperatorSums& sums = byName[ev.name_id[i]];
            ++sums.calls;
            sums.cpuTotal += duration;
            sums.cpuSelf += duration - childrenCpu[i];
            sums.deviceTotal += deviceTotal[i];
            sums.deviceSelf += deviceSelf[i];
        }
    }

    std::vector<std::pair<std::string_view, OperatorSums>> rows;
    rows.reserve(byName.size());
    for (const auto& [name, sums] : byName) rows.emplace_back(report.strings.str(name), sums);
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return a.second.cpuTotal != b.second.cpuTotal ? a.second.cpuTotal > b.second.cpuTotal : a.first < b.first;
    });
    for (const auto& [name, s] : rows)
        table.rows.push_back({std::string(name), s.calls, s.cpuTotal, s.cpuSelf, s.deviceTotal, s.deviceSelf});
    return table;
}

}  // namespace lanescope
