#include "analysis/NvtxProjection.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

#include "analysis/Cancellation.h"
#include "analysis/NvtxContaining.h"
#include "analysis/NvtxHierarchy.h"
#include "analysis/Summary.h"
#include "model/Correlation.h"
#include "model/LaneFreezer.h"

namespace lanescope {
namespace {

constexpr uint32_t kNone = kNoNvtxParent;
constexpr int32_t kGpuUnset = -2;

bool isNvtxLane(LaneKind kind) { return kind == LaneKind::Nvtx || kind == LaneKind::NvtxStartEnd; }

// Per thread, its NVTX lanes and its CUDA API lanes, in lane order.
struct LanesByThread {
    std::vector<std::vector<uint32_t>> nvtx, api;
};

LanesByThread lanesByThread(const Report& report) {
    LanesByThread by;
    by.nvtx.resize(report.threads.size());
    by.api.resize(report.threads.size());
    for (uint32_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& lane = report.lanes[li];
        if (lane.thread < 0 || static_cast<size_t>(lane.thread) >= report.threads.size()) continue;
        if (isNvtxLane(lane.kind)) by.nvtx[static_cast<size_t>(lane.thread)].push_back(li);
        if (lane.kind == LaneKind::CudaApi) by.api[static_cast<size_t>(lane.thread)].push_back(li);
    }
    return by;
}

// The GPU work gathered by one range so far.
struct Accumulator {
    int64_t start = std::numeric_limits<int64_t>::max();
    int64_t end = std::numeric_limits<int64_t>::min();
    int32_t gpu = kGpuUnset;
    bool any() const { return gpu != kGpuUnset; }
};

// Widens `a` by `work` (both on one GPU, or -1 for several).
void widen(Accumulator& a, const Accumulator& work) {
    a.start = std::min(a.start, work.start);
    a.end = std::max(a.end, work.end);
    a.gpu = !a.any() || a.gpu == work.gpu ? work.gpu : -1;
}

// The span on each GPU of the ranges whose work ran on several, by local id, each GPU's span
// once (few ranges have any: a process that drives two GPUs).
using SpansPerGpu = std::unordered_map<uint32_t, std::vector<Accumulator>>;

void widenOnGpu(std::vector<Accumulator>& spans, const Accumulator& work) {
    for (Accumulator& s : spans)
        if (s.gpu == work.gpu) return widen(s, work);
    spans.push_back(work);
}

// The GPU work of one thread's ranges, by local id (`acc`): what the CUDA API calls each range
// contains launched. With `pairs`, also every (local id, correlation id) of such a call; with
// `perGpu`, each GPU's span of the ranges whose work ran on several.
void gatherThreadWork(const Report& report, const CorrelationIndex& index, const ThreadRanges& flat,
                      const std::vector<uint32_t>& apiLanes, std::vector<Accumulator>& acc,
                      std::vector<std::pair<uint32_t, uint32_t>>* pairs, SpansPerGpu* perGpu = nullptr) {
    acc.assign(flat.size, Accumulator{});
    if (perGpu) perGpu->clear();
    std::vector<Accumulator> callOnGpu;  // one call's work on each GPU (almost always one)
    for (uint32_t li : apiLanes) {
        const Lane& api = report.lanes[li];
        CorrelationIndex::Cursor cursor;
        std::vector<NvtxContainingCursor> containing(flat.lanes.size());  // per NVTX lane of the thread
        for (uint32_t i = 0; i < api.events.size(); ++i) {
            if ((i & 0xFFFF) == 0) cancellationPoint();
            if (api.events.kind[i] != EventKind::CudaApiCall) continue;
            Accumulator work;
            callOnGpu.clear();
            index.forEachLaunched({li, i}, cursor, [&](EventRef op) {
                const Lane& gpuLane = report.lanes[op.lane];
                // A graph traced as a whole is left out, as nsys leaves it out of the projection.
                if (gpuLane.events.kind[op.index] == EventKind::GraphExecution) return;
                const Accumulator one{gpuLane.events.start_ns[op.index], gpuLane.events.endNs(op.index), gpuLane.gpu};
                widen(work, one);
                if (perGpu) widenOnGpu(callOnGpu, one);
            });
            if (!work.any()) continue;
            const uint32_t correlation = api.events.payload[i];
            for (size_t k = 0; k < flat.lanes.size(); ++k) {
                nvtxRangesContaining(report.lanes[flat.lanes[k]], api.events.start_ns[i], api.events.endNs(i),
                                     containing[k], [&](uint32_t r) {
                                         const uint32_t id = flat.base[k] + r;
                                         Accumulator& a = acc[id];
                                         const bool wasOnOneGpu = a.any() && a.gpu >= 0;
                                         const Accumulator before = a;
                                         widen(a, work);
                                         if (pairs) pairs->emplace_back(id, correlation);
                                         if (!perGpu || a.gpu >= 0) return;
                                         std::vector<Accumulator>& spans = (*perGpu)[id];
                                         if (wasOnOneGpu) spans.push_back(before);  // its work so far
                                         for (const Accumulator& w : callOnGpu) widenOnGpu(spans, w);
                                     });
            }
        }
    }
}

// The projections of one thread's ranges (unsorted, appended to `out`): the GPU work its CUDA
// API calls launched, gathered by every range of the thread that contains the call.
void projectThread(const Report& report, const CorrelationIndex& index, const ThreadRanges& flat,
                   const std::vector<uint32_t>& apiLanes, std::vector<ProjectedRange>& out) {
    std::vector<Accumulator> acc;
    std::vector<std::pair<uint32_t, uint32_t>> idsInRange;  // (local id, correlation id)
    gatherThreadWork(report, index, flat, apiLanes, acc, &idsInRange);
    if (idsInRange.empty()) return;

    // Operations counted as distinct correlation ids per range, as nsys counts them.
    std::sort(idsInRange.begin(), idsInRange.end());
    idsInRange.erase(std::unique(idsInRange.begin(), idsInRange.end()), idsInRange.end());
    std::vector<uint32_t> opCount(flat.size, 0);
    for (const auto& [id, correlation] : idsInRange) ++opCount[id];
    idsInRange = {};

    std::vector<uint32_t> parent(flat.size, kNone);
    std::vector<int32_t> level(flat.size, 0);
    computeHierarchy(report, flat, parent, level);
    std::vector<uint32_t> children(flat.size, 0);
    for (uint32_t id = 0; id < flat.size; ++id)
        if (acc[id].any() && parent[id] != kNone) ++children[parent[id]];

    for (uint32_t id = 0; id < flat.size; ++id) {
        const Accumulator& a = acc[id];
        if (!a.any()) continue;
        out.push_back({flat.ref(id), a.start, a.end, opCount[id], a.gpu, level[id], children[id],
                       parent[id] != kNone ? flat.ref(parent[id]) : EventRef{UINT32_MAX, UINT32_MAX}});
    }
}

// The projection's order: by GPU start, the longer projection first, then (lane, index).
bool projectedBefore(const ProjectedRange& a, const ProjectedRange& b) {
    const int64_t da = a.gpu_end_ns - a.gpu_start_ns, db = b.gpu_end_ns - b.gpu_start_ns;
    return std::tie(a.gpu_start_ns, db, a.range.lane, a.range.index) <
           std::tie(b.gpu_start_ns, da, b.range.lane, b.range.index);
}

// Runs project(thread, slot) for each thread with NVTX ranges and CUDA calls (of `process` only
// when it is not -1), `workers` threads at once into slots 0 .. workers - 1, and then
// deliver(thread, slot) for each, in thread order.
template <typename Project, typename Deliver>
void forEachProjectableThread(const Report& report, unsigned workers, const Project& project, const Deliver& deliver,
                              int32_t process = -1) {
    // Nothing can project without GPU work; skip the per-range state (CPU-only reports can
    // hold millions of ranges).
    if (std::none_of(report.lanes.begin(), report.lanes.end(),
                     [](const Lane& l) { return l.kind == LaneKind::GpuStream && l.events.size() > 0; }))
        return;
    const LanesByThread by = lanesByThread(report);
    const CorrelationIndex& index = correlationIndex(report);
    std::vector<size_t> threads;  // those with NVTX ranges and CUDA calls, in thread order
    for (size_t t = 0; t < report.threads.size(); ++t)
        if (!by.nvtx[t].empty() && !by.api[t].empty() && (process < 0 || report.threads[t].process == process))
            threads.push_back(t);
    workers = std::max(1u, workers);
    std::vector<ThreadRanges> flat(workers);
    for (size_t first = 0; first < threads.size(); first += workers) {
        const size_t count = std::min<size_t>(workers, threads.size() - first);
        std::atomic<size_t> next{0};
        runOnThreads(unsigned(count), [&] {
            for (size_t k; (k = next.fetch_add(1)) < count;) {
                const size_t t = threads[first + k];
                flat[k] = threadRanges(report, by.nvtx[t]);
                project(index, flat[k], by.api[t], k);
            }
        });
        for (size_t k = 0; k < count; ++k) deliver(flat[k], k);
    }
}

}  // namespace

void forEachThreadProjection(const Report& report,
                             const std::function<void(const std::vector<ProjectedRange>&)>& onThread,
                             unsigned workers) {
    std::vector<std::vector<ProjectedRange>> out(std::max(1u, workers));
    forEachProjectableThread(
        report, workers,
        [&](const CorrelationIndex& index, const ThreadRanges& flat, const std::vector<uint32_t>& apiLanes, size_t k) {
            out[k].clear();
            projectThread(report, index, flat, apiLanes, out[k]);
        },
        [&](const ThreadRanges&, size_t k) {
            if (!out[k].empty()) onThread(out[k]);
        });
}

std::vector<ProjectedRange> projectNvtxToGpu(const Report& report) {
    std::vector<ProjectedRange> out;
    forEachThreadProjection(report, [&](const std::vector<ProjectedRange>& ofThread) {
        out.insert(out.end(), ofThread.begin(), ofThread.end());
    });
    std::sort(out.begin(), out.end(), projectedBefore);
    return out;
}

namespace {

// nvtx_gpu_proj_sum's groups, filled one projected range at a time: one group per label
// ("<domain>:<name>") and style, holding each range's projected duration (ns) for the median.
class ProjSumGroups {
public:
    explicit ProjSumGroups(const Report& report) : report_(report) {}

    void add(const ProjectedRange& p) {
        if (p.range.lane >= report_.lanes.size()) return;
        const Lane& lane = report_.lanes[p.range.lane];
        if (p.range.index >= lane.events.size()) return;
        const uint32_t nameId = lane.events.name_id[p.range.index];
        const uint32_t row = lane.events.payload[p.range.index];
        const NvtxInfo info = row < report_.nvtx.size() ? report_.nvtx[row]
                                                        : NvtxInfo{0, 0, 0, false, lane.kind == LaneKind::NvtxStartEnd};
        const uint64_t key = (uint64_t{info.domain_name_id} << 33) | (uint64_t{info.start_end} << 32) | nameId;
        auto known = groupOfKey_.find(key);
        if (known == groupOfKey_.end()) {
            std::string label = std::string(report_.str(info.domain_name_id)) + ":" + std::string(report_.str(nameId));
            auto [it, inserted] = groupOfLabel_.try_emplace(label + (info.start_end ? "\nS" : "\nP"), groups_.size());
            if (inserted) groups_.push_back({std::move(label), info.start_end, {}});
            known = groupOfKey_.emplace(key, it->second).first;
        }
        Group& g = groups_[known->second];
        g.projected.push_back(p.gpu_end_ns - p.gpu_start_ns);
        g.rangeTime += lane.events.endNs(p.range.index) - lane.events.start_ns[p.range.index];
        g.ops += p.gpu_ops;
        g.levels += p.level;
        g.children += p.children;
    }

    StatsTable table() {
        struct Row {
            Summary s;
            const Group* g;
        };
        std::vector<Row> rows;
        rows.reserve(groups_.size());
        for (Group& g : groups_) rows.push_back({summarize(g.projected), &g});
        std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
            if (a.s.total != b.s.total) return a.s.total > b.s.total;
            return std::tie(a.g->label, a.g->startEnd) < std::tie(b.g->label, b.g->startEnd);
        });
        StatsTable table;
        table.name = "nvtx_gpu_proj_sum";
        table.header = {
            "Range",         "Style",         "Total Proj Time (ns)", "Total Range Time (ns)", "Range Instances",
            "Proj Avg (ns)", "Proj Med (ns)", "Proj Min (ns)",        "Proj Max (ns)",         "Proj StdDev (ns)",
            "Total GPU Ops", "Avg GPU Ops",   "Avg Range Lvl",        "Avg Num Child"};
        for (const Row& r : rows) {
            const Summary& s = r.s;
            const Group& g = *r.g;
            const double n = static_cast<double>(s.count);
            table.rows.push_back({g.label, std::string(g.startEnd ? "StartEnd" : "PushPop"), s.total, g.rangeTime,
                                  static_cast<int64_t>(s.count), StatsTable::Real{s.mean, 1},
                                  StatsTable::Real{s.median, 1}, s.min, s.max, StatsTable::Real{s.stddev, 1}, g.ops,
                                  StatsTable::Real{static_cast<double>(g.ops) / n, 1},
                                  StatsTable::Real{static_cast<double>(g.levels) / n, 1},
                                  StatsTable::Real{static_cast<double>(g.children) / n, 1}});
        }
        return table;
    }

private:
    struct Group {
        std::string label;
        bool startEnd = false;
        std::vector<int64_t> projected;
        int64_t rangeTime = 0, ops = 0, levels = 0, children = 0;
    };
    const Report& report_;
    std::vector<Group> groups_;
    std::unordered_map<uint64_t, size_t> groupOfKey_;       // (domain, style, name) -> group
    std::unordered_map<std::string, size_t> groupOfLabel_;  // label + style -> group
};

}  // namespace

StatsTable nvtxGpuProjSum(const Report& report, const std::vector<ProjectedRange>& projections) {
    ProjSumGroups groups(report);
    for (const ProjectedRange& p : projections) groups.add(p);
    return groups.table();
}

void addDeferredNvtxProjectionLanes(Report& report) {
    // A process can project when one of its threads has NVTX ranges and CUDA calls; onto the
    // GPUs its streams ran work on.
    std::set<int32_t> projecting;
    const LanesByThread by = lanesByThread(report);
    for (size_t t = 0; t < report.threads.size(); ++t) {
        const auto holdsEvents = [&](uint32_t li) { return report.lanes[li].events.size() > 0; };
        if (std::any_of(by.nvtx[t].begin(), by.nvtx[t].end(), holdsEvents) &&
            std::any_of(by.api[t].begin(), by.api[t].end(), holdsEvents))
            projecting.insert(report.threads[t].process);
    }
    std::set<std::pair<int32_t, int32_t>> keys;  // (process, GPU)
    for (const Lane& lane : report.lanes)
        if (lane.kind == LaneKind::GpuStream && lane.gpu >= 0 && lane.events.size() > 0 &&
            projecting.count(lane.process))
            keys.emplace(lane.process, lane.gpu);
    for (const auto& [process, gpu] : keys) {
        if (process < 0 || size_t(process) >= report.processes.size()) continue;
        Lane lane;
        lane.kind = LaneKind::NvtxGpuProjection;
        lane.name_id =
            report.strings.intern("NVTX on GPU, " + std::string(report.str(report.processes[process].name_id)) + " [" +
                                  std::to_string(report.processes[process].pid) + "]");
        lane.process = process;
        lane.gpu = gpu;
        freezeLane(lane, report.diagnostics);  // frozen empty, as every lane of a finished report is
        report.lanes.push_back(std::move(lane));
    }
}

void finishDeferredLane(const Report& report, DeferredLaneEvents& lane) {
    Diagnostics unused;  // a projection reports nothing the import has not
    freezeLane(lane.content, unused);
    // Each event's source follows it from the place it had when appended, in place, cycle by
    // cycle (no second copy): place i takes the source appended at payload[i].
    Column<uint32_t>& appendedAt = lane.content.events.payload;
    std::vector<bool> placed(appendedAt.size(), false);
    for (uint32_t i = 0; i < appendedAt.size(); ++i) {
        if (placed[i]) continue;
        const EventRef first = lane.sources[i];
        for (uint32_t j = i;;) {
            placed[j] = true;
            const uint32_t from = appendedAt[j];
            if (from == i) {
                lane.sources[j] = first;
                break;
            }
            lane.sources[j] = lane.sources[from];
            j = from;
        }
    }
    // And its payload is its source's (its row of Report::nvtx).
    for (uint32_t i = 0; i < appendedAt.size(); ++i)
        appendedAt[i] = report.lanes[lane.sources[i].lane].events.payload[lane.sources[i].index];
}

std::vector<DeferredLaneEvents> projectDeferredLanes(const Report& report, size_t lane, unsigned workers) {
    if (!isDeferredLane(report, lane)) return {};
    const int32_t process = report.lanes[lane].process;
    // The deferred lanes of the process, by GPU: one pass over its threads fills them all.
    std::vector<DeferredLaneEvents> out;
    std::map<int32_t, size_t> outOfGpu;
    size_t ranges = 0;
    for (size_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& other = report.lanes[li];
        if (other.process == process && isNvtxLane(other.kind)) ranges += other.events.size();
        if (other.process != process || !isDeferredLane(report, li)) continue;
        outOfGpu[other.gpu] = out.size();
        out.push_back({li, {}, {}});
        out.back().content.kind = other.kind;
        out.back().content.name_id = other.name_id;
        out.back().content.process = process;
        out.back().content.gpu = other.gpu;
    }
    // Reserved for every NVTX range of the process at once: pages of a large reservation that
    // are never written are never resident, and growing by doubling would hold two copies.
    for (size_t k = 0; k < out.size(); ++k) {
        out[k].content.events.reserve(ranges);
        out[k].sources.reserve(ranges);
    }
    std::vector<std::vector<Accumulator>> spans(std::max(1u, workers));
    std::vector<SpansPerGpu> onSeveral(spans.size());
    forEachProjectableThread(
        report, workers,
        [&](const CorrelationIndex& index, const ThreadRanges& flat, const std::vector<uint32_t>& apiLanes, size_t k) {
            gatherThreadWork(report, index, flat, apiLanes, spans[k], nullptr, &onSeveral[k]);
        },
        [&](const ThreadRanges& flat, size_t k) {
            for (size_t l = 0; l < flat.lanes.size(); ++l) {
                const Lane& source = report.lanes[flat.lanes[l]];
                // The event's payload holds its place in `sources` until the lane is frozen.
                auto append = [&](uint32_t i, const Accumulator& a) {
                    const auto at = outOfGpu.find(a.gpu);
                    if (at == outOfGpu.end()) return;
                    DeferredLaneEvents& o = out[at->second];
                    o.content.events.append(a.start, a.end, source.events.name_id[i], uint32_t(o.sources.size()),
                                            EventKind::NvtxRange);
                    o.sources.push_back({flat.lanes[l], i});
                };
                for (uint32_t i = 0; i < source.events.size(); ++i) {
                    const uint32_t id = flat.base[l] + i;
                    const Accumulator& a = spans[k][id];
                    if (!a.any()) continue;
                    if (a.gpu >= 0) {
                        append(i, a);
                        continue;
                    }
                    if (const auto several = onSeveral[k].find(id); several != onSeveral[k].end())
                        for (const Accumulator& onGpu : several->second)
                            if (onGpu.gpu >= 0) append(i, onGpu);  // the range on each GPU, over its work there
                }
            }
            spans[k] = {};
            onSeveral[k] = {};
        },
        process);
    for (DeferredLaneEvents& o : out) finishDeferredLane(report, o);
    return out;
}

void addNvtxProjectionLanes(Report& report, unsigned workers) {
    const size_t first = report.lanes.size();
    addDeferredNvtxProjectionLanes(report);
    // Filled process by process, each from its deferred lanes' events (moved: the report's lanes
    // do not grow meanwhile).
    std::set<int32_t> done;
    for (size_t li = first; li < report.lanes.size(); ++li) {
        if (!done.insert(report.lanes[li].process).second) continue;  // filled with an earlier one of its process
        for (DeferredLaneEvents& filled : projectDeferredLanes(report, li, workers))
            if (filled.content.events.size() > 0) report.lanes[filled.lane] = std::move(filled.content);
    }
    // Those no range projected onto are left out, as a report without the lanes would have none.
    report.lanes.erase(std::remove_if(report.lanes.begin() + std::ptrdiff_t(first), report.lanes.end(),
                                      [](const Lane& lane) { return lane.events.size() == 0; }),
                       report.lanes.end());
}

StatsTable nvtxGpuProjSumInRange(const Report& report, TimeRange range) {
    ProjSumGroups groups(report);
    forEachThreadProjection(report, [&](const std::vector<ProjectedRange>& ofThread) {
        for (const ProjectedRange& p : ofThread) {
            const IntervalColumns& ev = report.lanes[p.range.lane].events;
            if (range.contains(ev.start_ns[p.range.index], ev.endNs(p.range.index))) groups.add(p);
        }
    });
    return groups.table();
}

}  // namespace lanescope
