#include "timeline/RowTree.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "timeline/DeferredLanes.h"

namespace lanescope {
namespace {

int kindRank(LaneKind kind) {
    switch (kind) {
        case LaneKind::GpuStream:
            return 0;
        case LaneKind::CudaSync:
            return 1;
        case LaneKind::Nccl:
            return 2;
        case LaneKind::NvtxGpuProjection:
            return 2;
        case LaneKind::CpuCore:
            return 3;
        case LaneKind::ThreadState:
            return 4;
        case LaneKind::CpuSamples:
            return 5;
        case LaneKind::Nvtx:
            return 6;
        case LaneKind::NvtxStartEnd:
            return 7;
        case LaneKind::Mpi:
            return 8;
        case LaneKind::OpenMp:
            return 9;
        case LaneKind::CudaApi:
            return 10;
        case LaneKind::OsRuntime:
            return 11;
        case LaneKind::UnifiedMemory:
            return 2;
        case LaneKind::ProfilerOverhead:
            return 12;
        case LaneKind::UmCpuPageFaults:
            return 13;
    }
    return 14;
}

// Per lane: for a stream's kernel lane, its memory lane (same process, GPU, context and stream);
// for that memory lane, kMergedAway; else -1.
constexpr int kMergedAway = -2;
std::vector<int> memoryLanesOfStreams(const Report& r) {
    std::vector<int> merged(r.lanes.size(), -1);
    std::map<std::tuple<int32_t, int32_t, int64_t, int64_t>, size_t> kernelLaneOf;
    const auto streamOf = [&](const Lane& l) { return std::tuple(l.process, l.gpu, l.context_id, l.stream_id); };
    for (size_t i = 0; i < r.lanes.size(); ++i)
        if (isKernelLane(r.lanes[i])) kernelLaneOf.emplace(streamOf(r.lanes[i]), i);
    for (size_t i = 0; i < r.lanes.size(); ++i) {
        const Lane& l = r.lanes[i];
        if (l.kind != LaneKind::GpuStream || isKernelLane(l)) continue;
        const auto it = kernelLaneOf.find(streamOf(l));
        if (it == kernelLaneOf.end() || merged[it->second] >= 0) continue;
        merged[it->second] = static_cast<int>(i);
        merged[i] = kMergedAway;
    }
    return merged;
}

Row laneRow(const Report& r, size_t index, const std::vector<int>& merged) {
    const Lane& lane = shownLane(r, index);
    Row row{Row::Type::Lane,
            std::string(r.str(lane.name_id)),
            static_cast<int>(index),
            lane.events.size() + lane.instants.size(),
            {}};
    if (index < merged.size() && merged[index] >= 0) {
        row.merged_lane = merged[index];
        const Lane& memory = r.lanes[size_t(row.merged_lane)];
        row.events += memory.events.size() + memory.instants.size();
    }
    return row;
}

// On a GPU that several processes used (ranks sharing a GPU, MPS), two "Stream 7" rows would be
// told apart by nothing: each of its lanes then names its process ("Stream 7, python3 [791]"),
// as the NVTX-on-GPU rows always do.
void nameProcessesOfSharedGpu(const Report& r, Row& gpu) {
    auto processOf = [&](const Row& lane) { return r.lanes[size_t(lane.index)].process; };
    const bool shared = std::any_of(gpu.children.begin(), gpu.children.end(), [&](const Row& lane) {
        return processOf(lane) != processOf(gpu.children.front());
    });
    if (!shared) return;
    for (Row& lane : gpu.children) {
        const int32_t p = processOf(lane);
        if (p < 0 || size_t(p) >= r.processes.size() || r.lanes[size_t(lane.index)].kind == LaneKind::NvtxGpuProjection)
            continue;
        const Process& proc = r.processes[size_t(p)];
        lane.label += ", " + std::string(r.str(proc.name_id)) + " [" + std::to_string(proc.pid) + "]";
    }
}

void sumChildEvents(Row& group) {
    group.events = 0;
    for (const Row& c : group.children) group.events += c.events;
}

}  // namespace

std::vector<Row> buildRowTree(const Report& r, RowOrder order, bool keepEmpty) {
    std::vector<size_t> laneOrder(r.lanes.size());
    for (size_t i = 0; i < laneOrder.size(); ++i) laneOrder[i] = i;
    std::stable_sort(laneOrder.begin(), laneOrder.end(), [&](size_t a, size_t b) {
        const Lane &la = r.lanes[a], &lb = r.lanes[b];
        if (kindRank(la.kind) != kindRank(lb.kind)) return kindRank(la.kind) < kindRank(lb.kind);
        return std::tie(la.stream_id, la.cpu) < std::tie(lb.stream_id, lb.cpu);
    });

    const std::vector<int> merged = memoryLanesOfStreams(r);
    const auto shownOnItsOwnRow = [&](size_t li) { return merged[li] != kMergedAway; };
    std::vector<Row> gpus, processes;
    for (size_t g = 0; g < r.gpus.size(); ++g) {
        Row row{Row::Type::Gpu,
                "GPU " + std::to_string(r.gpus[g].device_id) + ": " + std::string(r.str(r.gpus[g].name_id)),
                static_cast<int>(g),
                0,
                {}};
        for (size_t li : laneOrder) {
            const Lane& lane = r.lanes[li];
            if (lane.gpu == static_cast<int>(g) && lane.thread < 0 && shownOnItsOwnRow(li))
                row.children.push_back(laneRow(r, li, merged));
        }
        nameProcessesOfSharedGpu(r, row);
        for (size_t c = 0; c < r.counters.size(); ++c)
            if (r.counters[c].gpu == static_cast<int>(g))
                row.children.push_back({Row::Type::Counter,
                                        std::string(r.str(r.counters[c].name_id)),
                                        static_cast<int>(c),
                                        r.counters[c].time_ns.size(),
                                        {}});
        sumChildEvents(row);
        // A GPU of the machine the report's processes did not use (a rank on GPU 1 of two) has no row.
        if (keepEmpty || !row.children.empty()) gpus.push_back(std::move(row));
    }
    for (size_t p = 0; p < r.processes.size(); ++p) {
        const Process& proc = r.processes[p];
        Row row{Row::Type::Process,
                std::string(r.str(proc.name_id)) + " [" + std::to_string(proc.pid) + "]",
                static_cast<int>(p),
                0,
                {}};
        for (size_t t = 0; t < r.threads.size(); ++t) {
            if (r.threads[t].process != static_cast<int>(p)) continue;
            Row thread{Row::Type::Thread,
                       std::string(r.str(r.threads[t].name_id)) + " [" + std::to_string(r.threads[t].tid) + "]",
                       static_cast<int>(t),
                       0,
                       {}};
            for (size_t li : laneOrder)
                if (r.lanes[li].thread == static_cast<int>(t)) thread.children.push_back(laneRow(r, li, merged));
            sumChildEvents(thread);
            if (keepEmpty || !thread.children.empty()) row.children.push_back(std::move(thread));
        }
        for (size_t li : laneOrder)  // GPU lanes of a process whose GPU is unknown
            if (r.lanes[li].process == static_cast<int>(p) && r.lanes[li].thread < 0 && r.lanes[li].gpu < 0 &&
                shownOnItsOwnRow(li))
                row.children.push_back(laneRow(r, li, merged));
        for (size_t c = 0; c < r.counters.size(); ++c)
            if (r.counters[c].gpu < 0 && r.counters[c].process == static_cast<int>(p))
                row.children.push_back({Row::Type::Counter,
                                        std::string(r.str(r.counters[c].name_id)),
                                        static_cast<int>(c),
                                        r.counters[c].time_ns.size(),
                                        {}});
        sumChildEvents(row);
        if (keepEmpty || !row.children.empty()) processes.push_back(std::move(row));
    }
    // A row per CPU core, which thread ran when (from context switches), after the processes.
    Row cpus{Row::Type::Cpus, "CPUs", -1, 0, {}};
    if (const int c = r.cpu_utilization_counter; c >= 0 && size_t(c) < r.counters.size())
        cpus.children.push_back(
            {Row::Type::Counter, std::string(r.str(r.counters[c].name_id)), c, r.counters[c].time_ns.size(), {}});
    for (size_t li : laneOrder)
        if (r.lanes[li].kind == LaneKind::CpuCore) cpus.children.push_back(laneRow(r, li, merged));
    sumChildEvents(cpus);
    if (!cpus.children.empty()) processes.push_back(std::move(cpus));
    std::vector<Row>& first = order == RowOrder::GpuFirst ? gpus : processes;
    std::vector<Row>& rest = order == RowOrder::GpuFirst ? processes : gpus;
    std::vector<Row> rows = std::move(first);
    for (Row& row : rest) rows.push_back(std::move(row));
    return rows;
}

}  // namespace lanescope
