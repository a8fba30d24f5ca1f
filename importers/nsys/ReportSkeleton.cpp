// ReportBuilder::skeleton: the rows an import of an Nsight Systems report knows so far, as a
// small report of their own for a viewer to draw while the events are read.
#include <algorithm>
#include <numeric>
#include <set>
#include <unordered_map>

#include "importers/nsys/ReportBuilder.h"
#include "importers/nsys/SyncLanePlacement.h"
#include "model/LaneFreezer.h"
#include "model/MpiRank.h"

namespace lanescope::nsys {
namespace {

bool ownedByThread(LaneKind kind) {
    return kind != LaneKind::CpuCore && kind != LaneKind::UmCpuPageFaults && !holdsGpuWork(kind);
}

}  // namespace

std::vector<LaneKey> ReportBuilder::schedLanes() const {
    std::set<int64_t> threads, cores;  // nsys globalTid; CPU number
    for (const SchedRow& row : sched_) {
        threads.insert(row.global_tid);
        if (row.sched_in) cores.insert(row.cpu);
    }
    std::vector<LaneKey> lanes;
    for (int64_t tid : threads) lanes.push_back({LaneKind::ThreadState, tid});
    for (int64_t cpu : cores) lanes.push_back({LaneKind::CpuCore, cpu});
    return lanes;
}

std::shared_ptr<const Report> ReportBuilder::skeleton(const Metadata& meta,
                                                      const std::vector<LaneKey>& foreseen) const {
    auto out = std::make_shared<Report>();
    Report& s = *out;
    s.meta = meta;
    auto copied = [&](uint32_t id) { return s.strings.intern(report_.str(id)); };
    auto named = [&](std::optional<uint32_t> recorded, const std::string& otherwise) {
        return recorded ? copied(*recorded) : s.strings.intern(otherwise);
    };

    // What is made keeps its index; what the foreseen lanes name follows, made as the import
    // will make it (nsys id -> index in s, for those added here).
    for (const Process& p : report_.processes) s.processes.push_back({p.pid, copied(p.name_id)});
    for (const Thread& t : report_.threads) s.threads.push_back({t.tid, t.process, copied(t.name_id), t.priority});
    for (const Gpu& g : report_.gpus) s.gpus.push_back({g.device_id, copied(g.name_id)});
    std::unordered_map<int64_t, int32_t> addedProcess, addedThread, addedGpu;
    auto process = [&](int64_t globalPid) {
        if (const auto made = entities_.findProcess(globalPid)) return *made;
        auto [it, added] = addedProcess.try_emplace(globalPid, int32_t(s.processes.size()));
        if (added)
            s.processes.push_back({pidOf(globalPid), named(entities_.recordedProcessName(globalPid),
                                                           "Process " + std::to_string(pidOf(globalPid)))});
        return it->second;
    };
    auto thread = [&](int64_t globalTid) {
        const int64_t globalPid = globalPidOf(globalTid), tid = tidOf(globalTid);
        if (const auto made = entities_.findThread(globalPid, tid)) return *made;
        auto [it, added] = addedThread.try_emplace(globalTid, int32_t(s.threads.size()));
        if (added) {
            const int32_t owner = process(globalPid);
            s.threads.push_back({tid, owner,
                                 named(entities_.recordedThreadName(globalPid, tid), "Thread " + std::to_string(tid)),
                                 kNoPriority});
        }
        return it->second;
    };
    auto gpu = [&](int64_t device) {
        if (const auto made = entities_.findGpu(device)) return *made;
        auto [it, added] = addedGpu.try_emplace(device, int32_t(s.gpus.size()));
        if (added)
            s.gpus.push_back({device, named(entities_.recordedGpuName(device), "GPU " + std::to_string(device))});
        return it->second;
    };

    for (const Lane& made : report_.lanes) {
        Lane& lane = s.lanes.emplace_back(made.rowOnly());
        lane.name_id = copied(made.name_id);
    }
    for (const LaneKey& key : foreseen) {
        if (lanes_.count(key)) continue;
        Lane lane;
        lane.kind = key.kind;
        lane.name_id = s.strings.intern(EntityRegistry::defaultLaneName(key.kind, key.stream));
        if (key.kind == LaneKind::CpuCore) {
            lane.cpu = int32_t(key.owner);
            lane.name_id = s.strings.intern("CPU " + std::to_string(key.owner));
        } else if (ownedByThread(key.kind)) {
            lane.thread = thread(key.owner);
            lane.process = s.threads[size_t(lane.thread)].process;
        } else {
            lane.process = process(key.owner);
            lane.gpu = key.device >= 0 ? gpu(key.device) : -1;
            lane.stream_id = key.stream;
            lane.context_id = key.context;
        }
        s.lanes.push_back(std::move(lane));
    }

    // GPUs by device id, as complete() orders them.
    std::vector<int32_t> order(s.gpus.size()), newIndex(s.gpus.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int32_t a, int32_t b) { return s.gpus[size_t(a)].device_id < s.gpus[size_t(b)].device_id; });
    std::vector<Gpu> sorted;
    for (size_t i = 0; i < order.size(); ++i) {
        newIndex[size_t(order[i])] = int32_t(i);
        sorted.push_back(s.gpus[size_t(order[i])]);
    }
    s.gpus = std::move(sorted);
    for (Lane& lane : s.lanes)
        if (lane.gpu >= 0) lane.gpu = newIndex[size_t(lane.gpu)];
    placeSyncLanesOnTheirContextsGpu(s);
    for (Lane& lane : s.lanes) freezeLane(lane, s.diagnostics);
    // The MPI rank a thread name records comes first, as finishReport does.
    if (const int rank = recordedMpiRank(s); rank >= 0) s.meta.rank = rank;
    return out;
}

}  // namespace lanescope::nsys
