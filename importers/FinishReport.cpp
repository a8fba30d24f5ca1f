#include "importers/FinishReport.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <thread>

#include "importers/KernelLanes.h"
#include "importers/WorkerErrors.h"
#include "model/DiagnosticKinds.h"
#include "model/LaneFreezer.h"
#include "model/MpiRank.h"
#include "model/NvtxPayloadPlacement.h"

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

// A "Profiler overhead" lane per thread that the profiler kept busy (ranges with a thread).
void addProfilerOverheadLanes(Report& report) {
    std::map<int32_t, size_t> laneOf;  // thread -> index into report.lanes
    for (const OverheadRange& o : report.profiler_overhead) {
        if (o.thread < 0 || size_t(o.thread) >= report.threads.size()) continue;
        auto [at, inserted] = laneOf.try_emplace(o.thread, report.lanes.size());
        if (inserted) {
            Lane lane;
            lane.kind = LaneKind::ProfilerOverhead;
            lane.thread = o.thread;
            lane.process = report.threads[size_t(o.thread)].process;
            lane.name_id = report.strings.intern(laneKindName(LaneKind::ProfilerOverhead));
            report.lanes.push_back(std::move(lane));
        }
        report.lanes[at->second].events.append(o.start_ns, o.end_ns, o.name_id, kNoPayload,
                                               EventKind::ProfilerOverhead);
    }
}

// The whole-CPU utilization from the frozen CPU core lanes: at each change, the percent of
// the cores seen in the report that run a thread.
void addCpuUtilizationCounter(Report& report) {
    std::vector<std::pair<int64_t, int>> changes;  // (time, +1 start / -1 end)
    size_t cores = 0;
    for (const Lane& l : report.lanes) {
        if (l.kind != LaneKind::CpuCore) continue;
        ++cores;
        for (size_t i = 0; i < l.events.size(); ++i) {
            changes.push_back({l.events.start_ns[i], +1});
            changes.push_back({l.events.endNs(i), -1});
        }
    }
    if (cores == 0 || changes.empty()) return;
    std::sort(changes.begin(), changes.end());
    Counter c;
    c.name_id = report.strings.intern("CPU utilization");
    c.unit_id = report.strings.intern("%");
    c.derived = true;
    int running = 0;
    for (size_t i = 0; i < changes.size(); ++i) {
        running += changes[i].second;
        if (i + 1 < changes.size() && changes[i + 1].first == changes[i].first) continue;  // one sample per time
        const double value = 100.0 * std::max(running, 0) / double(cores);
        if (!c.value.empty() && c.value.back() == value) continue;
        c.time_ns.push_back(changes[i].first);
        c.value.push_back(value);
    }
    report.cpu_utilization_counter = int32_t(report.counters.size());
    report.counters.push_back(std::move(c));
}

// Per GPU, the bytes unified memory migrated to it and from it so far, at the end of each
// migration (memcpys of kinds UvmHtoD, UvmDtoH), from the frozen stream lanes.
void addMigrationCounters(Report& report) {
    struct Moved {
        int64_t end_ns;
        uint64_t bytes;
    };
    std::map<std::pair<int32_t, bool>, std::vector<Moved>> byGpu;  // (gpu, to device)
    for (const Lane& l : report.lanes) {
        if (l.kind != LaneKind::GpuStream) continue;
        for (size_t i = 0; i < l.events.size(); ++i) {
            if (l.events.kind[i] != EventKind::Memcpy || l.events.payload[i] >= report.memcpys.size()) continue;
            const MemcpyInfo& m = report.memcpys[l.events.payload[i]];
            if (m.copy_kind == CopyKind::UvmHtoD || m.copy_kind == CopyKind::UvmDtoH)
                byGpu[{l.gpu, m.copy_kind == CopyKind::UvmHtoD}].push_back({l.events.endNs(i), m.bytes});
        }
    }
    for (auto& [key, moved] : byGpu) {
        std::stable_sort(moved.begin(), moved.end(),
                         [](const Moved& a, const Moved& b) { return a.end_ns < b.end_ns; });
        Counter c;
        c.name_id = report.strings.intern(key.second ? "UM migrated to GPU" : "UM migrated to host");
        c.unit_id = report.strings.intern("bytes");
        c.gpu = key.first;
        c.derived = true;
        double total = 0;
        for (const Moved& m : moved) {
            total += double(m.bytes);
            if (!c.time_ns.empty() && c.time_ns.back() == m.end_ns) {
                c.value.back() = total;
                continue;
            }
            c.time_ns.push_back(m.end_ns);
            c.value.push_back(total);
        }
        report.counters.push_back(std::move(c));
    }
}

// Freezes lanes in parallel, largest first; each worker keeps its own diagnostics. Report::file_order
// then follows the events that freezing moved.
void freezeLanes(Report& report, unsigned threads) {
    const std::vector<bool> inFileOrder = lanesInFileOrder(report.file_order, report.lanes.size());
    std::vector<FrozenPositions> positions(report.lanes.size());
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
                for (size_t k; (k = next.fetch_add(1)) < order.size();) {
                    Lane& lane = report.lanes[order[k]];
                    freezeLane(lane, found[w], isKernelLane(lane) ? ColumnFit::KeepCapacity : ColumnFit::Shrink,
                               inFileOrder[order[k]] ? &positions[order[k]] : nullptr);
                }
            }));
    }
    errors.rethrow();
    for (const auto& d : found) mergeDiagnostics(report.diagnostics, d);
    toFrozenOrder(report.file_order, positions);
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
    report.backtrace_frame_details.shrink_to_fit();
    report.sample_frame_details.shrink_to_fit();
    report.cuda_api_results.shrink_to_fit();
    report.nvtx_other_starts_ns.shrink_to_fit();
    report.nvtx_domains.shrink_to_fit();
    report.nvtx_namings.shrink_to_fit();
    report.nvtx_ties.shrink_to_fit();
    report.graph_executions.shrink_to_fit();
    report.cuda_events.shrink_to_fit();
    report.gpu_page_faults.shrink_to_fit();
    report.cpu_page_faults.shrink_to_fit();
    report.migrations.shrink_to_fit();
    report.peer_copies.shrink_to_fit();
    report.process_streams.shrink_to_fit();
    report.capture_options.shrink_to_fit();
    report.generic_event_sources.shrink_to_fit();
    report.generic_event_types.shrink_to_fit();
    report.generic_event_fields.shrink_to_fit();
    report.kernel_graph_nodes.shrink_to_fit();
    report.collective_args.shrink_to_fit();
}

}  // namespace

void finishReport(Report& report, unsigned threads, const std::function<void(Report&)>& addViewLanes) {
    deriveNcclLanes(report);
    addProfilerOverheadLanes(report);
    separateKernelLanes(report, threads);
    freezeLanes(report, threads ? threads : std::max(1u, std::thread::hardware_concurrency()));
    packKernelLanes(report, threads);
    placeNvtxPayloads(report);
    addCpuUtilizationCounter(report);
    addMigrationCounters(report);
    for (Counter& c : report.counters) freezeCounter(c);
    trimSideTables(report);
    if (addViewLanes) addViewLanes(report);
    setTimeSpan(report);
    // The MPI rank the report records comes before what the importer found (the captured
    // environment, Kineto distributedInfo).
    if (const int rank = recordedMpiRank(report); rank >= 0) report.meta.rank = rank;
}

}  // namespace lanescope
