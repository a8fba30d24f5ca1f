#include "importers/FinishReport.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <thread>

#include "importers/WorkerErrors.h"
#include "model/DiagnosticKinds.h"
#include "model/LaneFreezer.h"
#include "model/MpiRank.h"

namespace lanescope {
namespace {

bool isNcclEvent(const Report& report, const IntervalColumns& ev, size_t i, uint32_t ncclDomain) {
    if (ev.kind[i] == EventKind::Kernel) return report.str(ev.name_id[i]).starts_with("nccl");
    return ev.kind[i] == EventKind::NvtxRange && ncclDomain != UINT32_MAX && ev.payload[i] < report.nvtx.size() &&
           report.nvtx[ev.payload[i]].domain_name_id == ncclDomain;
}

void deriveNcclLanes(Report& report) {
    for (const Lane& l : report.lanes)
        if (l.kind == LaneKind::Nccl) return;  // read from the file
    const uint32_t ncclDomain = report.strings.find("NCCL");
    // The GPU a process works on, for its CPU-side NCCL ranges: its first GPU lane's.
    std::map<int32_t, int32_t> gpuOfProcess;
    for (const Lane& l : report.lanes)
        if (l.kind == LaneKind::GpuStream) gpuOfProcess.try_emplace(l.process, l.gpu);

    std::map<std::pair<int32_t, int32_t>, size_t> laneOf;  // (process, gpu) -> index into `nccl`
    std::vector<Lane> nccl;
    for (const Lane& l : report.lanes) {
        const IntervalColumns& ev = l.events;
        for (size_t i = 0; i < ev.size(); ++i) {
            if (!isNcclEvent(report, ev, i, ncclDomain)) continue;
            int32_t gpu = l.gpu;
            if (gpu < 0)
                if (auto it = gpuOfProcess.find(l.process); it != gpuOfProcess.end()) gpu = it->second;
            auto [at, inserted] = laneOf.try_emplace({l.process, gpu}, nccl.size());
            if (inserted) {
                Lane lane;
                lane.kind = LaneKind::Nccl;
                lane.process = l.process;
                lane.gpu = gpu;
                lane.name_id = report.strings.intern(laneKindName(LaneKind::Nccl));
                nccl.push_back(std::move(lane));
            }
            IntervalColumns& to = nccl[at->second].events;
            to.append(ev.start_ns[i], ev.endNs(i), ev.name_id[i], ev.payload[i], ev.kind[i]);
        }
    }
    for (Lane& lane : nccl) report.lanes.push_back(std::move(lane));
}

// Freezes lanes in parallel, largest first; each worker keeps its own diagnostics.
void freezeLanes(Report& report, unsigned threads) {
    std::vector<size_t> order(report.lanes.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return report.lanes[a].events.size() > report.lanes[b].events.size(); });
    const unsigned workers = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(order.size())));
    std::vector<Diagnostics> found(workers);
    std::atomic<size_t> next{0};
    WorkerErrors errors;
    {
        std::vector<std::jthread> pool;
        for (unsigned w = 0; w < workers; ++w)
            pool.emplace_back(errors.guard([&, w] {
                for (size_t k; (k = next.fetch_add(1)) < order.size();) freezeLane(report.lanes[order[k]], found[w]);
            }));
    }
    errors.rethrow();
    for (const auto& d : found) mergeDiagnostics(report.diagnostics, d);
}

// The side tables grew row by row while importing: give back what their growth reserved
// (up to half of each; the kernels of a large report are megabytes).
void trimSideTables(Report& report) {
    report.kernels.shrink_to_fit();
    report.kernel_configs.shrink_to_fit();
    report.memcpys.shrink_to_fit();
    report.memsets.shrink_to_fit();
    report.syncs.shrink_to_fit();
    report.nvtx.shrink_to_fit();
    report.profiler_overhead.shrink_to_fit();
    report.backtraces.shrink_to_fit();
    report.cuda_api_results.shrink_to_fit();
    report.nvtx_other_starts_ns.shrink_to_fit();
}

}  // namespace

void finishReport(Report& report, unsigned threads, const std::function<void(Report&)>& addViewLanes) {
    deriveNcclLanes(report);
    freezeLanes(report, threads ? threads : std::max(1u, std::thread::hardware_concurrency()));
    for (Counter& c : report.counters) freezeCounter(c);
    trimSideTables(report);
    if (addViewLanes) addViewLanes(report);
    setTimeSpan(report);
    // The MPI rank the report records comes before what the importer found (the captured
    // environment, Kineto distributedInfo).
    if (const int rank = recordedMpiRank(report); rank >= 0) report.meta.rank = rank;
}

}  // namespace lanescope
