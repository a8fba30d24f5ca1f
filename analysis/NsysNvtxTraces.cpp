#include "analysis/NsysNvtxTraces.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>

#include "analysis/NsysStatsSupport.h"
#include "analysis/NvtxHierarchy.h"
#include "analysis/NvtxProjection.h"
#include "analysis/NvtxRangeIds.h"

namespace lanescope {
namespace {

using namespace nsysstats;
using Cell = StatsTable::Cell;
constexpr uint32_t kNone = UINT32_MAX;

// The push/pop nesting of one Nvtx lane, per event in lane order: parent (lane kNone for an
// outermost range), level, number of children and their summed duration (ns).
struct Nesting {
    std::vector<EventRef> parent;
    std::vector<uint32_t> level, children;
    std::vector<int64_t> childTime;
};

// The nesting of every Nvtx lane, indexed like Report::lanes, over all the push/pop ranges of
// each thread, as nsys nests a thread's ranges (NvtxHierarchy.h): a thread has one Nvtx lane in
// an nsys report, several in a PyTorch trace (its operators, Python frames and annotations).
std::vector<Nesting> nestingByThread(const Report& report) {
    std::vector<Nesting> nesting(report.lanes.size());
    std::map<int64_t, std::vector<uint32_t>> lanesOfThread;  // a lane without a thread alone, by -1 - lane
    for (uint32_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& lane = report.lanes[li];
        if (lane.kind != LaneKind::Nvtx) continue;
        lanesOfThread[lane.thread >= 0 ? int64_t{lane.thread} : -1 - int64_t{li}].push_back(li);
        Nesting& n = nesting[li];
        n.parent.assign(lane.events.size(), EventRef{kNone, kNone});
        n.level.assign(lane.events.size(), 0);
        n.children.assign(lane.events.size(), 0);
        n.childTime.assign(lane.events.size(), 0);
    }
    for (const auto& [thread, lanes] : lanesOfThread) {
        const ThreadRanges flat = threadRanges(report, lanes);
        std::vector<uint32_t> parent(flat.size, kNoNvtxParent);
        std::vector<int32_t> level(flat.size, 0);
        computeHierarchy(report, flat, parent, level);
        for (uint32_t id = 0; id < flat.size; ++id) {
            const EventRef r = flat.ref(id);
            nesting[r.lane].level[r.index] = static_cast<uint32_t>(level[id]);
            if (parent[id] == kNoNvtxParent) continue;
            const EventRef p = flat.ref(parent[id]);
            const IntervalColumns& ev = report.lanes[r.lane].events;
            nesting[r.lane].parent[r.index] = p;
            ++nesting[p.lane].children[p.index];
            nesting[p.lane].childTime[p.index] += ev.endNs(r.index) - ev.start_ns[r.index];
        }
    }
    return nesting;
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
    const std::vector<Nesting> nesting = nestingByThread(report);

    TraceRows rows(table, options);
    forEachEventByStart(report, {EventKind::NvtxRange}, range, [&](const Lane& lane, size_t i) {
        if (lane.kind != LaneKind::Nvtx || !rows.wanted()) return;
        const size_t li = static_cast<size_t>(&lane - report.lanes.data());
        const Nesting& n = nesting[li];
        const IntervalColumns& ev = lane.events;
        const int64_t duration = ev.endNs(i) - ev.start_ns[i];
        const std::string name = nvtxLabel(report, nvtxInfoOf(report, lane, i), ev.name_id[i]);
        auto idOf = [&](EventRef r) { return r.lane == kNone ? kNone : ids[r.lane][r.index]; };
        // Ancestors, their ids printed outermost first.
        std::string stack;
        for (EventRef at{uint32_t(li), uint32_t(i)}; at.lane != kNone; at = nesting[at.lane].parent[at.index])
            stack.insert(0, ':' + std::to_string(idOf(at)));
        rows.add({ev.start_ns[i], ev.endNs(i), duration, n.childTime[i], duration - n.childTime[i], name,
                  pidOf(report, lane), tidOf(report, lane), int64_t{n.level[i]}, int64_t{n.children[i]},
                  int64_t{ids[li][i]}, idOrNull(idOf(n.parent[i])), std::move(stack),
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
    std::vector<ProjectedRange> projected;
    forEachThreadProjection(report, [&](const std::vector<ProjectedRange>& ofThread) {
        projected.insert(projected.end(), ofThread.begin(), ofThread.end());
    });
    if (projected.empty()) return table;
    const std::vector<std::vector<uint32_t>> ids = nvtxEventIds(report).ranges;
    auto idOf = [&](EventRef r) { return r.lane == UINT32_MAX ? kNone : ids[r.lane][r.index]; };
    // In RangeId order (the ranges' start on the CPU), as nsys prints them, not by projected
    // start: the two orders differ where the GPUs of several processes or threads run their work
    // in another order than their ranges began.
    std::sort(projected.begin(), projected.end(),
              [&](const ProjectedRange& a, const ProjectedRange& b) { return idOf(a.range) < idOf(b.range); });
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
