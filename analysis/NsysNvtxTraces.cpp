#include "analysis/NsysNvtxTraces.h"

#include <string>
#include <unordered_map>

#include "analysis/NsysStatsSupport.h"
#include "analysis/NvtxProjection.h"
#include "analysis/NvtxRangeIds.h"

namespace lanescope {
namespace {

using namespace nsysstats;
using Cell = StatsTable::Cell;
constexpr uint32_t kNone = UINT32_MAX;

// The push/pop nesting of one Nvtx lane, per event in lane order: parent index (kNone for an
// outermost range), level, number of children and their summed duration (ns).
struct Nesting {
    std::vector<uint32_t> parent;
    std::vector<uint32_t> level, children;
    std::vector<int64_t> childTime;
};

// Events come in start order, longer first on equal starts, so a range's enclosing ranges are
// on the stack when it is met: one pass.
Nesting nestingOf(const Lane& lane) {
    const IntervalColumns& ev = lane.events;
    Nesting n;
    n.parent.assign(ev.size(), kNone);
    n.level.assign(ev.size(), 0);
    n.children.assign(ev.size(), 0);
    n.childTime.assign(ev.size(), 0);
    std::vector<uint32_t> stack;
    for (uint32_t i = 0; i < ev.size(); ++i) {
        if (ev.kind[i] != EventKind::NvtxRange) continue;
        while (!stack.empty() &&
               !(ev.start_ns[stack.back()] <= ev.start_ns[i] && ev.endNs(i) <= ev.endNs(stack.back())))
            stack.pop_back();
        if (!stack.empty()) {
            const uint32_t p = stack.back();
            n.parent[i] = p;
            n.level[i] = static_cast<uint32_t>(stack.size());
            ++n.children[p];
            n.childTime[p] += ev.endNs(i) - ev.start_ns[i];
        }
        stack.push_back(i);
    }
    return n;
}

// ":outer:...:id" from the ids of a range's ancestors, found through parentOf (kNone at the top).
template <typename ParentOf>
std::string rangeStack(uint32_t id, ParentOf&& parentOf) {
    std::vector<uint32_t> chain;
    for (uint32_t at = id; at != kNone; at = parentOf(at)) chain.push_back(at);
    std::string out;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) out += ':' + std::to_string(*it);
    return out;
}

Cell idOrNull(uint32_t id) { return id == kNone ? Cell{std::string()} : Cell{int64_t{id}}; }

}  // namespace

StatsTable nvtxPushPopTrace(const Report& report, TimeRange range, const StatsOptions& options) {
    StatsTable table;
    table.name = "nvtx_pushpop_trace";
    table.header = {"Start (ns)", "End (ns)", "Duration (ns)", "DurChild (ns)", "DurNonChild (ns)",
                    "Name",       "PID",      "TID",           "Lvl",           "NumChild",
                    "RangeId",    "ParentId", "RangeStack",    "NameTree"};
    bool any = false;
    for (const Lane& lane : report.lanes) any = any || (lane.kind == LaneKind::Nvtx && lane.events.size() > 0);
    if (!any) return table;
    const std::vector<std::vector<uint32_t>> ids = nvtxEventIds(report).ranges;
    std::vector<Nesting> nesting(report.lanes.size());
    for (size_t li = 0; li < report.lanes.size(); ++li)
        if (report.lanes[li].kind == LaneKind::Nvtx) nesting[li] = nestingOf(report.lanes[li]);

    TraceRows rows(table, options);
    forEachEventByStart(report, {EventKind::NvtxRange}, range, [&](const Lane& lane, size_t i) {
        if (lane.kind != LaneKind::Nvtx || !rows.wanted()) return;
        const size_t li = static_cast<size_t>(&lane - report.lanes.data());
        const Nesting& n = nesting[li];
        const std::vector<uint32_t>& laneIds = ids[li];
        const IntervalColumns& ev = lane.events;
        const int64_t duration = ev.endNs(i) - ev.start_ns[i];
        const std::string name = nvtxLabel(report, nvtxInfoOf(report, lane, i), ev.name_id[i]);
        // Ancestors by lane index; their ids printed outermost first.
        std::string stack;
        for (uint32_t at = static_cast<uint32_t>(i); at != kNone; at = n.parent[at])
            stack.insert(0, ':' + std::to_string(laneIds[at]));
        const uint32_t parent = n.parent[i];
        rows.add({ev.start_ns[i], ev.endNs(i), duration, n.childTime[i], duration - n.childTime[i], name,
                  pidOf(report, lane), tidOf(report, lane), int64_t{n.level[i]}, int64_t{n.children[i]},
                  int64_t{laneIds[i]}, idOrNull(parent == kNone ? kNone : laneIds[parent]), std::move(stack),
                  std::string(2 * n.level[i], '-') + name});
    });
    return table;
}

StatsTable nvtxGpuProjTrace(const Report& report, TimeRange range, const StatsOptions& options) {
    StatsTable table;
    table.name = "nvtx_gpu_proj_trace";
    table.header = {"Name",
                    "Projected Start (ns)",
                    "Projected Duration (ns)",
                    "Orig Start (ns)",
                    "Orig Duration (ns)",
                    "Style",
                    "PID",
                    "TID",
                    "NumGPUOps",
                    "Lvl",
                    "NumChild",
                    "RangeId",
                    "ParentId",
                    "RangeStack"};
    const std::vector<ProjectedRange> projected = projectNvtxToGpu(report);
    if (projected.empty()) return table;
    const std::vector<std::vector<uint32_t>> ids = nvtxEventIds(report).ranges;
    auto idOf = [&](EventRef r) { return r.lane == UINT32_MAX ? kNone : ids[r.lane][r.index]; };
    // RangeId -> ParentId of every projected range (their ancestors are projected too).
    std::unordered_map<uint32_t, uint32_t> parentOf;
    for (const ProjectedRange& p : projected) parentOf.emplace(idOf(p.range), idOf(p.parent));
    TraceRows rows(table, options);
    for (const ProjectedRange& p : projected) {
        const Lane& lane = report.lanes[p.range.lane];
        const IntervalColumns& ev = lane.events;
        const size_t i = p.range.index;
        if (!range.contains(ev.start_ns[i], ev.endNs(i)) || !rows.wanted()) continue;
        const NvtxInfo info = nvtxInfoOf(report, lane, i);
        const uint32_t id = idOf(p.range);
        rows.add({nvtxLabel(report, info, ev.name_id[i]), p.gpu_start_ns, p.gpu_end_ns - p.gpu_start_ns, ev.start_ns[i],
                  ev.endNs(i) - ev.start_ns[i], std::string(info.start_end ? "StartEnd" : "PushPop"),
                  pidOf(report, lane), tidOf(report, lane), int64_t{p.gpu_ops}, int64_t{p.level}, int64_t{p.children},
                  int64_t{id}, idOrNull(idOf(p.parent)), rangeStack(id, [&](uint32_t at) {
                      const auto it = parentOf.find(at);
                      return it == parentOf.end() ? kNone : it->second;
                  })});
    }
    return table;
}

}  // namespace lanescope
