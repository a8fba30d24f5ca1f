#include "model/Report.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <numeric>
#include <tuple>

#include "model/MpiRank.h"

namespace lanescope {

std::string_view laneKindName(LaneKind kind) {
    switch (kind) {
        case LaneKind::OsRuntime:
            return "OS runtime";
        case LaneKind::CudaApi:
            return "CUDA API";
        case LaneKind::Nvtx:
            return "NVTX";
        case LaneKind::NvtxStartEnd:
            return "NVTX start/end";
        case LaneKind::GpuStream:
            return "CUDA HW";
        case LaneKind::CudaSync:
            return "CUDA sync";
        case LaneKind::Nccl:
            return "NCCL";
        case LaneKind::NvtxGpuProjection:
            return "NVTX on GPU";
        case LaneKind::CpuSamples:
            return "CPU samples";
        case LaneKind::ThreadState:
            return "Thread state";
        case LaneKind::CpuCore:
            return "CPU";
        case LaneKind::Mpi:
            return "MPI";
        case LaneKind::OpenMp:
            return "OpenMP";
        case LaneKind::ProfilerOverhead:
            return "Profiler overhead";
        case LaneKind::UnifiedMemory:
            return "Unified memory";
        case LaneKind::UmCpuPageFaults:
            return "UM CPU page faults";
    }
    return "?";
}

std::string_view threadRunStateName(ThreadRunState state) {
    switch (state) {
        case ThreadRunState::Running:
            return "Running";
        case ThreadRunState::Blocked:
            return "Blocked";
        case ThreadRunState::Preempted:
            return "Preempted";
        case ThreadRunState::Unknown:
            break;
    }
    return "Not running";
}

std::string pytorchDeviceLabel(uint8_t deviceType, int16_t deviceId) {
    if (deviceType == kPytorchDeviceCpu) return "CPU";
    if (deviceType == kPytorchDeviceCuda) return "CUDA " + std::to_string(deviceId);
    return "device type " + std::to_string(deviceType) + " " + std::to_string(deviceId);
}

const char* copyKindLabel(CopyKind kind) {
    static const char* const labels[] = {"Unknown",
                                         "Host-to-Device",
                                         "Device-to-Host",
                                         "Host-to-Array",
                                         "Array-to-Host",
                                         "Array-to-Array",
                                         "Array-to-Device",
                                         "Device-to-Array",
                                         "Device-to-Device",
                                         "Host-to-Host",
                                         "Peer-to-Peer",
                                         "Unified Host-to-Device",
                                         "Unified Device-to-Host",
                                         "Unified Device-to-Device"};
    const auto index = static_cast<size_t>(kind);
    return index < std::size(labels) ? labels[index] : "Unknown";
}

const char* nsysMessageSeverityName(uint8_t severity) {
    static const char* const names[] = {"unknown", "info", "warning", "error", "verbose"};
    return severity < std::size(names) ? names[severity] : "unknown";
}

const char* nsysMessageSourceName(uint8_t source) {
    static const char* const names[] = {"unknown", "injection", "daemon", "analysis"};
    return source < std::size(names) ? names[source] : "unknown";
}

std::vector<size_t> nsysMessagesByTime(const std::vector<NsysMessage>& messages) {
    std::vector<size_t> rows(messages.size());
    std::iota(rows.begin(), rows.end(), size_t{0});
    std::stable_sort(rows.begin(), rows.end(),
                     [&](size_t a, size_t b) { return messages[a].time_ns < messages[b].time_ns; });
    return rows;
}

const char* memKindLabel(MemKind kind) {
    static const char* const labels[] = {"Pageable", "Pinned",        "Device",         "Array",
                                         "Managed",  "Device Static", "Managed Static", "Unknown"};
    const auto index = static_cast<size_t>(kind);
    return index < std::size(labels) ? labels[index] : "Unknown";
}

size_t InstantColumns::memoryBytes() const {
    return time_ns.capacity() * sizeof(int64_t) + name_id.capacity() * sizeof(uint32_t) +
           payload.capacity() * sizeof(uint32_t);
}

const EventCounts& finishedCounts(const Report& report) {
    return report.derived.get<EventCounts>([&] { return report.counts(); });
}

EventCounts Report::counts() const {
    EventCounts c;
    for (const Lane& lane : lanes) {
        // CPU samples are counted apart from the instants; thread states and core runs are
        // made from context switches, counted as such (one switch-in each).
        if (lane.kind == LaneKind::CpuSamples) {
            c.cpu_samples += lane.instants.size();
            continue;
        }
        if (lane.kind == LaneKind::CpuCore) continue;
        if (lane.kind == LaneKind::ThreadState) {
            for (size_t i = 0; i < lane.events.size(); ++i)
                c.context_switches += threadStateOf(lane.events.payload[i]) == ThreadRunState::Running;
            continue;
        }
        c.instants += lane.instants.size();
        if (lane.kind == LaneKind::GpuStream) c.cuda_events += lane.instants.size();
        if (lane.kind == LaneKind::UmCpuPageFaults) c.um_cpu_page_faults += lane.instants.size();
        if (lane.kind == LaneKind::Nccl) c.nccl += lane.events.size();
        if (holdsDerivedEvents(lane.kind)) continue;  // counted in their own lanes
        c.slices += lane.events.size();
        for (EventKind k : lane.events.kind) {
            switch (k) {
                case EventKind::OsRuntimeCall:
                    ++c.osrt;
                    break;
                case EventKind::CudaApiCall:
                    ++c.cuda_api;
                    break;
                case EventKind::NvtxRange:
                    ++c.nvtx;
                    break;
                case EventKind::Kernel:
                    ++c.kernels;
                    break;
                case EventKind::Memcpy:
                    ++c.memcpy;
                    break;
                case EventKind::Memset:
                    ++c.memset;
                    break;
                case EventKind::Sync:
                    ++c.sync;
                    break;
                case EventKind::MpiCall:
                    ++c.mpi;
                    break;
                case EventKind::OpenMpEvent:
                    ++c.openmp;
                    break;
                case EventKind::GraphExecution:
                    ++c.graph_executions;
                    break;
                case EventKind::GpuPageFault:
                    ++c.um_gpu_page_faults;
                    break;
                case EventKind::ProfilerOverhead:
                    break;
                case EventKind::ThreadState:
                case EventKind::CoreRun:
                    break;
            }
        }
    }
    for (const Counter& counter : counters) c.counter_samples += counter.time_ns.size();
    return c;
}

size_t Report::memoryBytes() const {
    size_t bytes = sizeof(Report) + strings.memoryBytes();
    bytes += processes.capacity() * sizeof(Process) + threads.capacity() * sizeof(Thread) +
             gpus.capacity() * sizeof(Gpu) + recorded_names.capacity() * sizeof(RecordedName) +
             lanes.capacity() * sizeof(Lane);
    for (const Lane& lane : lanes)
        bytes += lane.events.memoryBytes() + lane.instants.memoryBytes() +
                 (lane.depth_order.capacity() + lane.depth_begin.capacity()) * sizeof(uint32_t);
    for (const Counter& counter : counters)
        bytes +=
            sizeof(Counter) + counter.time_ns.capacity() * sizeof(int64_t) + counter.value.capacity() * sizeof(double);
    bytes += kernels.capacity() * sizeof(KernelInfo) + kernel_configs.capacity() * sizeof(KernelConfig) +
             memcpys.capacity() * sizeof(MemcpyInfo) + memsets.capacity() * sizeof(MemsetInfo) +
             syncs.capacity() * sizeof(SyncInfo) + nvtx.capacity() * sizeof(NvtxInfo) +
             profiler_overhead.capacity() * sizeof(OverheadRange) + stacks.memoryBytes() +
             backtraces.capacity() * sizeof(CallBacktrace) +
             (backtrace_frame_details.capacity() + sample_frame_details.capacity()) * sizeof(FrameDetail) +
             cuda_api_results.capacity() * sizeof(CallResult) + unusual_samples.capacity() * sizeof(SampleCounts) +
             nvtx_other_starts_ns.capacity() * sizeof(int64_t) + nvtx_domains.capacity() * sizeof(NvtxDomainCreation) +
             nvtx_namings.capacity() * sizeof(NvtxNaming) + nvtx_ties.capacity() * sizeof(NvtxTie) +
             graph_executions.capacity() * sizeof(GraphExecutionInfo) + cuda_events.capacity() * sizeof(CudaEventInfo) +
             gpu_page_faults.capacity() * sizeof(GpuPageFaultInfo) +
             cpu_page_faults.capacity() * sizeof(CpuPageFaultInfo) + migrations.capacity() * sizeof(Migration) +
             peer_copies.capacity() * sizeof(PeerCopy) + kernel_graph_nodes.capacity() * sizeof(KernelGraphNode) +
             collective_args.capacity() * sizeof(CollectiveArgs) + graph_api_events.capacity() * sizeof(GraphApiEvent) +
             process_streams.capacity() * sizeof(ProcessStream) + capture_options.capacity() * sizeof(CaptureOption) +
             generic_event_sources.capacity() * sizeof(GenericEventSource) +
             generic_event_types.capacity() * sizeof(GenericEventType) +
             generic_event_fields.capacity() * sizeof(GenericEventField) +
             nsys_messages.capacity() * sizeof(NsysMessage) + pytorch_memory.capacity() * sizeof(PytorchMemoryEvent) +
             cuda_memory_events.capacity() * sizeof(CudaMemoryEvent) + machine_gpus.capacity() * sizeof(MachineGpu) +
             system_properties.capacity() * sizeof(SystemProperty) + nvtx_payloads.memoryBytes() +
             file_order.memoryBytes();
    for (const NsysMessage& m : nsys_messages) bytes += m.text.capacity();
    return bytes;
}

SampleCounts sampleCountsAt(const Report& report, int32_t thread, int64_t t) {
    const auto& all = report.unusual_samples;
    const auto key = std::pair(thread, t);
    const auto it =
        std::lower_bound(all.begin(), all.end(), key, [](const SampleCounts& s, const auto& k) { return s.key() < k; });
    if (it != all.end() && it->key() == key) return *it;
    return {thread, kUsualSampleState, t, kUsualSampleCycles};
}

int32_t cudaApiResult(const Report& report, const Lane& lane, size_t index) {
    const auto& all = report.cuda_api_results;
    if (all.empty() || index >= lane.events.size()) return 0;
    const auto key = std::tuple(lane.thread, lane.events.start_ns[index], lane.events.payload[index]);
    const auto it =
        std::lower_bound(all.begin(), all.end(), key, [](const CallResult& r, const auto& k) { return r.key() < k; });
    return it != all.end() && it->key() == key ? it->result : 0;
}

std::string Metadata::fileName() const { return std::filesystem::path(source_path).filename().string(); }

int rankInFileName(std::string name) {
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    for (size_t at = name.find("rank"); at != std::string::npos; at = name.find("rank", at + 1)) {
        size_t i = at + 4;
        while (i < name.size() && (name[i] == '_' || name[i] == '-' || name[i] == '.')) ++i;
        int rank = -1;
        for (; i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])) && rank < 1'000'000; ++i)
            rank = std::max(rank, 0) * 10 + (name[i] - '0');
        if (rank >= 0) return rank;
    }
    return -1;
}

int rankOf(const Report& report) {
    return report.meta.rank >= 0 ? report.meta.rank : rankInFileName(report.meta.fileName());
}

bool listedInThreadNames(const Report& report, const Thread& thread) {
    if (report.recorded_names.empty()) return true;
    const int64_t pid = thread.process >= 0 ? report.processes[size_t(thread.process)].pid : 0;
    return std::any_of(report.recorded_names.begin(), report.recorded_names.end(),
                       [&](const RecordedName& n) { return n.pid == pid && n.tid == thread.tid; });
}

std::vector<bool> listedThreads(const Report& report) {
    std::vector<bool> listed(report.threads.size(), true);
    if (report.recorded_names.empty()) return listed;
    // The recorded threads' (pid, tid), sorted ascending.
    std::vector<std::pair<int64_t, int64_t>> recorded;
    for (const RecordedName& n : report.recorded_names)
        if (n.tid != kProcessOwnName) recorded.emplace_back(n.pid, n.tid);
    std::sort(recorded.begin(), recorded.end());
    for (size_t t = 0; t < report.threads.size(); ++t) {
        const Thread& thread = report.threads[t];
        const int64_t pid = thread.process >= 0 ? report.processes[size_t(thread.process)].pid : 0;
        listed[t] = std::binary_search(recorded.begin(), recorded.end(), std::pair(pid, thread.tid));
    }
    return listed;
}

std::string rankLabel(const Report& report) {
    const int rank = rankOf(report);
    return rank >= 0 ? "rank " + std::to_string(rank) : report.meta.fileName();
}

std::string reportTitle(const Report& report) {
    const int rank = rankOf(report);
    return rank >= 0 ? "rank " + std::to_string(rank) + " · " + report.meta.fileName() : report.meta.fileName();
}

}  // namespace lanescope
