#include "analysis/NvtxProjection.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>

#include "analysis/Cancellation.h"
#include "analysis/NvtxContaining.h"
#include "analysis/Summary.h"
#include "model/Correlation.h"
#include "model/LaneFreezer.h"

namespace lanescope {
namespace {

constexpr uint32_t kNone = UINT32_MAX;
constexpr int32_t kGpuUnset = -2;

bool isNvtxLane(LaneKind kind) { return kind == LaneKind::Nvtx || kind == LaneKind::NvtxStartEnd; }

// Every NVTX range of the threads' own NVTX lanes under one flat id: lane base + index.
struct FlatRanges {
    std::vector<uint32_t> base;                        // per lane; meaningful for NVTX lanes
    std::vector<EventRef> ref;                         // flat id -> event
    std::vector<std::vector<uint32_t>> lanesOfThread;  // thread -> its NVTX lanes
};

FlatRanges flatten(const Report& report) {
    FlatRanges f;
    f.base.assign(report.lanes.size(), 0);
    f.lanesOfThread.resize(report.threads.size());
    for (uint32_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& lane = report.lanes[li];
        if (!isNvtxLane(lane.kind) || lane.thread < 0 || static_cast<size_t>(lane.thread) >= report.threads.size())
            continue;
        f.lanesOfThread[static_cast<size_t>(lane.thread)].push_back(li);
        f.base[li] = static_cast<uint32_t>(f.ref.size());
        for (uint32_t i = 0; i < lane.events.size(); ++i) f.ref.push_back({li, i});
    }
    return f;
}

// The GPU work gathered by one range so far.
struct Accumulator {
    int64_t start = std::numeric_limits<int64_t>::max();
    int64_t end = std::numeric_limits<int64_t>::min();
    int32_t gpu = kGpuUnset;
    bool any() const { return gpu != kGpuUnset; }
};

// Prefix minimum over end ranks (ends in descending order), of (length, -order): the
// shortest range inserted so far that ends at or after a given end, the latest on ties.
class ShortestEnclosing {
public:
    explicit ShortestEnclosing(size_t n) : tree_(n + 1, Item{}) {}
    void insert(size_t rank, int64_t length, uint32_t order) {
        const Item item{length, order};
        for (size_t i = rank + 1; i < tree_.size(); i += i & (~i + 1))
            if (better(item, tree_[i])) tree_[i] = item;
    }
    // The order of the best range among ranks 0..rank, or kNone.
    uint32_t query(size_t rank) const {
        Item best{};
        for (size_t i = rank + 1; i > 0; i -= i & (~i + 1))
            if (better(tree_[i], best)) best = tree_[i];
        return best.order;
    }

private:
    struct Item {
        int64_t length = std::numeric_limits<int64_t>::max();
        uint32_t order = kNone;
    };
    static bool better(const Item& a, const Item& b) {
        if (b.order == kNone) return a.order != kNone;
        if (a.order == kNone) return false;
        return a.length < b.length || (a.length == b.length && a.order > b.order);
    }
    std::vector<Item> tree_;
};

// Parent (flat id or kNone) and level of every range of one thread, as nsys's NVTX_PARENT
// and tree: the parent is the shortest other range containing it. Ranges are swept in
// (start ascending, end descending, flat id) order, so every container of a range is
// inserted before the range itself is queried.
void computeHierarchy(const Report& report, const FlatRanges& flat, const std::vector<uint32_t>& lanes,
                      std::vector<uint32_t>& parent, std::vector<int32_t>& level) {
    std::vector<uint32_t> ids;
    for (uint32_t li : lanes) {
        const IntervalColumns& ev = report.lanes[li].events;
        for (uint32_t i = 0; i < ev.size(); ++i)
            if (ev.kind[i] == EventKind::NvtxRange) ids.push_back(flat.base[li] + i);
    }
    auto startOf = [&](uint32_t id) {
        const EventRef r = flat.ref[id];
        return report.lanes[r.lane].events.start_ns[r.index];
    };
    auto endOf = [&](uint32_t id) {
        const EventRef r = flat.ref[id];
        return report.lanes[r.lane].events.endNs(r.index);
    };
    std::sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) {
        const int64_t sa = startOf(a), sb = startOf(b), ea = endOf(a), eb = endOf(b);
        return std::tie(sa, eb, a) < std::tie(sb, ea, b);
    });
    std::vector<int64_t> ends;
    ends.reserve(ids.size());
    for (uint32_t id : ids) ends.push_back(endOf(id));
    std::sort(ends.begin(), ends.end(), std::greater<>());
    ends.erase(std::unique(ends.begin(), ends.end()), ends.end());

    ShortestEnclosing tree(ends.size());
    for (uint32_t order = 0; order < ids.size(); ++order) {
        const uint32_t id = ids[order];
        const int64_t end = endOf(id);
        const size_t rank =
            static_cast<size_t>(std::lower_bound(ends.begin(), ends.end(), end, std::greater<>()) - ends.begin());
        const uint32_t best = tree.query(rank);
        if (best != kNone) {
            parent[id] = ids[best];
            level[id] = level[ids[best]] + 1;
        }
        tree.insert(rank, end - startOf(id), order);
    }
}

}  // namespace

std::vector<ProjectedRange> projectNvtxToGpu(const Report& report) {
    // Nothing can project without GPU work; skip the per-range state (CPU-only reports can
    // hold millions of ranges).
    if (std::none_of(report.lanes.begin(), report.lanes.end(),
                     [](const Lane& l) { return l.kind == LaneKind::GpuStream && l.events.size() > 0; }))
        return {};
    const FlatRanges flat = flatten(report);
    if (flat.ref.empty()) return {};
    const CorrelationIndex index(report);

    std::vector<Accumulator> acc(flat.ref.size());
    std::vector<std::pair<uint32_t, uint32_t>> idsInRange;  // (flat id, correlation id)
    for (uint32_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& api = report.lanes[li];
        if (api.kind != LaneKind::CudaApi || api.thread < 0 || static_cast<size_t>(api.thread) >= report.threads.size())
            continue;
        const std::vector<uint32_t>& nvtxLanes = flat.lanesOfThread[static_cast<size_t>(api.thread)];
        if (nvtxLanes.empty()) continue;
        for (uint32_t i = 0; i < api.events.size(); ++i) {
            if ((i & 0xFFFF) == 0) cancellationPoint();
            if (api.events.kind[i] != EventKind::CudaApiCall) continue;
            std::vector<EventRef> ops = index.launchedBy({li, i});
            // A graph traced as a whole is left out, as nsys leaves it out of the projection.
            std::erase_if(ops, [&](EventRef op) {
                return report.lanes[op.lane].events.kind[op.index] == EventKind::GraphExecution;
            });
            if (ops.empty()) continue;
            Accumulator work;
            for (EventRef op : ops) {
                const Lane& gpuLane = report.lanes[op.lane];
                work.start = std::min(work.start, gpuLane.events.start_ns[op.index]);
                work.end = std::max(work.end, gpuLane.events.endNs(op.index));
                work.gpu = work.gpu == kGpuUnset || work.gpu == gpuLane.gpu ? gpuLane.gpu : -1;
            }
            const uint32_t correlation = api.events.payload[i];
            for (uint32_t nl : nvtxLanes) {
                nvtxRangesContaining(report.lanes[nl], api.events.start_ns[i], api.events.endNs(i), [&](uint32_t r) {
                    const uint32_t id = flat.base[nl] + r;
                    Accumulator& a = acc[id];
                    a.start = std::min(a.start, work.start);
                    a.end = std::max(a.end, work.end);
                    a.gpu = !a.any() || a.gpu == work.gpu ? work.gpu : -1;
                    idsInRange.emplace_back(id, correlation);
                });
            }
        }
    }

    // Operations counted as distinct correlation ids per range, as nsys counts them.
    std::sort(idsInRange.begin(), idsInRange.end());
    idsInRange.erase(std::unique(idsInRange.begin(), idsInRange.end()), idsInRange.end());
    std::vector<uint32_t> opCount(flat.ref.size(), 0);
    for (const auto& [id, correlation] : idsInRange) ++opCount[id];

    std::vector<uint32_t> parent(flat.ref.size(), kNone);
    std::vector<int32_t> level(flat.ref.size(), 0);
    for (const std::vector<uint32_t>& lanes : flat.lanesOfThread) {
        bool projected = false;
        for (uint32_t li : lanes)
            for (uint32_t i = 0; i < report.lanes[li].events.size() && !projected; ++i)
                projected = acc[flat.base[li] + i].any();
        if (projected) computeHierarchy(report, flat, lanes, parent, level);
    }

    std::vector<uint32_t> children(flat.ref.size(), 0);
    for (uint32_t id = 0; id < flat.ref.size(); ++id)
        if (acc[id].any() && parent[id] != kNone) ++children[parent[id]];

    std::vector<ProjectedRange> out;
    for (uint32_t id = 0; id < flat.ref.size(); ++id) {
        const Accumulator& a = acc[id];
        if (!a.any()) continue;
        out.push_back({flat.ref[id], a.start, a.end, opCount[id], a.gpu, level[id], children[id],
                       parent[id] != kNone ? flat.ref[parent[id]] : EventRef{UINT32_MAX, UINT32_MAX}});
    }
    std::sort(out.begin(), out.end(), [](const ProjectedRange& a, const ProjectedRange& b) {
        const int64_t da = a.gpu_end_ns - a.gpu_start_ns, db = b.gpu_end_ns - b.gpu_start_ns;
        return std::tie(a.gpu_start_ns, db, a.range.lane, a.range.index) <
               std::tie(b.gpu_start_ns, da, b.range.lane, b.range.index);
    });
    return out;
}

StatsTable nvtxGpuProjSum(const Report& report, const std::vector<ProjectedRange>& projections) {
    struct Group {
        std::string label;
        bool startEnd = false;
        std::vector<int64_t> projected;
        int64_t rangeTime = 0, ops = 0, levels = 0, children = 0;
    };
    std::vector<Group> groups;
    std::unordered_map<uint64_t, size_t> groupOfKey;       // (domain, style, name) -> group
    std::unordered_map<std::string, size_t> groupOfLabel;  // label + style -> group
    for (const ProjectedRange& p : projections) {
        if (p.range.lane >= report.lanes.size()) continue;
        const Lane& lane = report.lanes[p.range.lane];
        if (p.range.index >= lane.events.size()) continue;
        const uint32_t nameId = lane.events.name_id[p.range.index];
        const uint32_t row = lane.events.payload[p.range.index];
        const NvtxInfo info =
            row < report.nvtx.size() ? report.nvtx[row] : NvtxInfo{0, 0, 0, false, lane.kind == LaneKind::NvtxStartEnd};
        const uint64_t key = (uint64_t{info.domain_name_id} << 33) | (uint64_t{info.start_end} << 32) | nameId;
        auto known = groupOfKey.find(key);
        if (known == groupOfKey.end()) {
            std::string label = std::string(report.str(info.domain_name_id)) + ":" + std::string(report.str(nameId));
            auto [it, inserted] = groupOfLabel.try_emplace(label + (info.start_end ? "\nS" : "\nP"), groups.size());
            if (inserted) groups.push_back({std::move(label), info.start_end, {}});
            known = groupOfKey.emplace(key, it->second).first;
        }
        Group& g = groups[known->second];
        g.projected.push_back(p.gpu_end_ns - p.gpu_start_ns);
        g.rangeTime += lane.events.endNs(p.range.index) - lane.events.start_ns[p.range.index];
        g.ops += p.gpu_ops;
        g.levels += p.level;
        g.children += p.children;
    }

    struct Row {
        Summary s;
        const Group* g;
    };
    std::vector<Row> rows;
    rows.reserve(groups.size());
    for (Group& g : groups) rows.push_back({summarize(g.projected), &g});
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
                              static_cast<int64_t>(s.count), StatsTable::Real{s.mean, 1}, StatsTable::Real{s.median, 1},
                              s.min, s.max, StatsTable::Real{s.stddev, 1}, g.ops,
                              StatsTable::Real{static_cast<double>(g.ops) / n, 1},
                              StatsTable::Real{static_cast<double>(g.levels) / n, 1},
                              StatsTable::Real{static_cast<double>(g.children) / n, 1}});
    }
    return table;
}

void addNvtxProjectionLanes(Report& report) {
    // Kept with the report: the lanes added below are derived ones, which the projection skips,
    // and the statistics read it later.
    const std::vector<ProjectedRange>& projected = nvtxGpuProjection(report);
    // The new lanes are built apart and appended at the end: report.lanes does not grow while
    // its events are read (a reference into it would dangle once it reallocates).
    std::map<std::pair<int32_t, int32_t>, size_t> laneOf;  // (process, gpu) -> index into added
    std::vector<Lane> added;
    for (const ProjectedRange& p : projected) {
        if (p.gpu < 0) continue;
        const IntervalColumns& source = report.lanes[p.range.lane].events;
        const int32_t process = report.lanes[p.range.lane].process;
        auto [it, inserted] = laneOf.try_emplace({process, p.gpu}, added.size());
        if (inserted) {
            Lane lane;
            lane.kind = LaneKind::NvtxGpuProjection;
            lane.name_id =
                report.strings.intern("NVTX on GPU, " + std::string(report.str(report.processes[process].name_id)) +
                                      " [" + std::to_string(report.processes[process].pid) + "]");
            lane.process = process;
            lane.gpu = p.gpu;
            added.push_back(std::move(lane));
        }
        added[it->second].events.append(p.gpu_start_ns, p.gpu_end_ns, source.name_id[p.range.index],
                                        source.payload[p.range.index], EventKind::NvtxRange);
    }
    for (Lane& lane : added) {
        freezeLane(lane, report.diagnostics);
        report.lanes.push_back(std::move(lane));
    }
}

namespace {
// The type under which the projection is kept in Report::derived.
struct CachedNvtxProjection {
    std::vector<ProjectedRange> ranges;
};
}  // namespace

const std::vector<ProjectedRange>& nvtxGpuProjection(const Report& report) {
    return report.derived.get<CachedNvtxProjection>([&] { return CachedNvtxProjection{projectNvtxToGpu(report)}; })
        .ranges;
}

StatsTable nvtxGpuProjSumInRange(const Report& report, TimeRange range) {
    std::vector<ProjectedRange> projected = nvtxGpuProjection(report);
    std::erase_if(projected, [&](const ProjectedRange& p) {
        const IntervalColumns& ev = report.lanes[p.range.lane].events;
        return !range.contains(ev.start_ns[p.range.index], ev.endNs(p.range.index));
    });
    return nvtxGpuProjSum(report, projected);
}

}  // namespace lanescope
