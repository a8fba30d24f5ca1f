#include "model/EventDetails.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string_view>

#include "model/Occupancy.h"

namespace lanescope {
namespace {

constexpr const char* kTimes = "\xC3\x97";  // U+00D7 MULTIPLICATION SIGN
constexpr const char* kMicro = "\xC2\xB5";  // U+00B5 MICRO SIGN

std::string printf3(const char* format, double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

// The CPU-side events of one graph (node = false: creation, instantiation, cloning) or of one
// graph node (node = true), as "Graph Creation" = "393315764 ns on thread 1234".
void addGraphApiEvents(const Report& report, bool node, uint64_t id, std::vector<DetailField>& f) {
    for (const GraphApiEvent& e : report.graph_api_events) {
        if (e.node != node || (e.graph_id != id && e.original_graph_id != id)) continue;
        std::string where = std::to_string(e.start_ns) + " ns";
        if (e.thread >= 0 && size_t(e.thread) < report.threads.size())
            where += ", thread " + std::to_string(report.threads[size_t(e.thread)].tid);
        if (!node && e.graph_exec_id != kNoGraphId) where += ", exec id " + std::to_string(e.graph_exec_id);
        if (e.original_graph_id == id && e.graph_id != id)
            where += ", as the original of " + std::to_string(e.graph_id);
        f.push_back({std::string(report.str(e.name_id)), std::move(where)});
    }
}

// The PyTorch memory event an instant named "[memory]" of a thread's lane stands for: the one
// of Report::pytorch_memory on the lane's thread at the instant's time (the k-th such when k
// instants of that name and time come before it), or null.
const PytorchMemoryEvent* pytorchMemoryOf(const Report& report, const Lane& lane, size_t index) {
    const InstantColumns& in = lane.instants;
    if (lane.thread < 0 || report.pytorch_memory.empty() || report.str(in.name_id[index]) != "[memory]") return nullptr;
    const int64_t time = in.time_ns[index];
    size_t before = 0;
    for (size_t j = index; j-- > 0 && in.time_ns[j] == time;) before += in.name_id[j] == in.name_id[index] ? 1 : 0;
    const auto& events = report.pytorch_memory;
    auto it = std::lower_bound(events.begin(), events.end(), time,
                               [](const PytorchMemoryEvent& e, int64_t t) { return e.time_ns < t; });
    for (; it != events.end() && it->time_ns == time; ++it)
        if (it->thread == lane.thread && before-- == 0) return &*it;
    return nullptr;
}

}  // namespace

std::string hexAddress(uint64_t address) {
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "0x%" PRIX64, address);
    return buffer;
}

const char* umAccessTypeLabel(uint8_t type) {
    static const char* const labels[] = {"Unknown", "Read", "Write", "Atomic", "Prefetch"};
    return type < std::size(labels) ? labels[type] : "Unknown";
}

const char* launchTypeLabel(uint8_t type) {
    switch (type) {  // ENUM_CUDA_KERNEL_LAUNCH_TYPE
        case 1:
            return "Regular";
        case 2:
            return "Cooperative (single device)";
        case 3:
            return "Cooperative (multi-device)";
        default:
            return "Unknown";
    }
}

const char* syncTypeLabel(uint8_t type) {
    switch (type) {  // ENUM_CUPTI_SYNC_TYPE
        case 1:
            return "Event sync";
        case 2:
            return "Stream wait sync";
        case 3:
            return "Stream sync";
        case 4:
            return "Context sync";
        default:
            return "Unknown";
    }
}

const char* eventKindLabel(EventKind kind) {
    switch (kind) {
        case EventKind::OsRuntimeCall:
            return "OS runtime";
        case EventKind::CudaApiCall:
            return "CUDA API";
        case EventKind::NvtxRange:
            return "NVTX range";
        case EventKind::Kernel:
            return "Kernel";
        case EventKind::Memcpy:
            return "Memcpy";
        case EventKind::Memset:
            return "Memset";
        case EventKind::Sync:
            return "Sync";
        case EventKind::ThreadState:
            return "Thread state";
        case EventKind::CoreRun:
            return "Thread on core";
        case EventKind::MpiCall:
            return "MPI";
        case EventKind::OpenMpEvent:
            return "OpenMP";
        case EventKind::GraphExecution:
            return "CUDA graph";
        case EventKind::ProfilerOverhead:
            return "Profiler overhead";
        case EventKind::GpuPageFault:
            return "GPU page faults";
    }
    return "Unknown";
}

std::string detailDuration(int64_t ns) {
    // Magnitude as unsigned so INT64_MIN is representable.
    const uint64_t magnitude = ns < 0 ? uint64_t{0} - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
    const std::string sign = ns < 0 ? "-" : "";
    if (magnitude < 1000) return sign + std::to_string(magnitude) + " ns";
    struct Unit {
        uint64_t ns;
        std::string name;
    };
    const Unit units[] = {{1000, std::string(kMicro) + "s"}, {1000000, "ms"}, {1000000000, "s"}};
    size_t u = magnitude >= 1000000000 ? 2 : magnitude >= 1000000 ? 1 : 0;
    // Thousandths of the unit, rounded half up; a value that rounds up to 1000.000 moves on
    // to the next unit.
    auto thousandths = [&](size_t unit) {
        const uint64_t step = units[unit].ns / 1000;
        return magnitude / step + (magnitude % step >= (step + 1) / 2 ? 1 : 0);
    };
    uint64_t t = thousandths(u);
    if (t >= 1000000 && u < 2) t = thousandths(++u);
    char frac[8];
    std::snprintf(frac, sizeof frac, "%03" PRIu64, t % 1000);
    return sign + std::to_string(t / 1000) + "." + frac + " " + units[u].name;
}

std::string detailTriple(uint64_t x, uint64_t y, uint64_t z) {
    return std::to_string(x) + " " + kTimes + " " + std::to_string(y) + " " + kTimes + " " + std::to_string(z);
}

std::string detailThousands(uint64_t value) {
    std::string digits = std::to_string(value);
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string detailBytes(uint64_t bytes) {
    std::string text = detailThousands(bytes) + " B";
    if (bytes < 1000) return text;
    static const char* const units[] = {"kB", "MB", "GB", "TB", "PB", "EB"};
    double value = static_cast<double>(bytes) / 1000.0;
    size_t u = 0;
    while (value >= 999.995 && u + 1 < std::size(units)) {  // 999.995 kB prints as 1.00 MB
        value /= 1000.0;
        ++u;
    }
    return text + " (" + printf3("%.2f", value) + " " + units[u] + ")";
}

std::string detailThroughput(uint64_t bytes, int64_t ns) {
    if (ns <= 0) return "n/a";
    const double gbPerS = static_cast<double>(bytes) / static_cast<double>(ns);  // B/ns = GB/s
    if (gbPerS >= 1.0) return printf3("%.3f GB/s", gbPerS);
    return printf3("%.3f MB/s", gbPerS * 1000.0);
}

std::vector<DetailField> eventDetails(const Report& report, EventRef ref) {
    std::vector<DetailField> f;
    if (ref.lane >= report.lanes.size()) return f;
    const Lane& lane = report.lanes[ref.lane];
    const IntervalColumns& ev = lane.events;
    if (ref.index >= ev.size()) return f;
    const size_t i = ref.index;
    const int64_t duration = ev.endNs(i) - ev.start_ns[i];
    const EventKind kind = ev.kind[i];
    const uint32_t payload = ev.payload[i];
    auto add = [&](std::string label, std::string value) { f.push_back({std::move(label), std::move(value)}); };
    auto str = [&](uint32_t id) { return id < report.strings.size() ? std::string(report.str(id)) : std::string(); };

    add("Name", str(ev.name_id[i]));
    add("Kind", eventKindLabel(kind));
    add("Start", std::to_string(ev.start_ns[i]) + " ns");
    add("Duration", detailDuration(duration));
    add("Lane", str(lane.name_id));
    if (lane.process >= 0 && static_cast<size_t>(lane.process) < report.processes.size()) {
        const Process& p = report.processes[static_cast<size_t>(lane.process)];
        add("Process", str(p.name_id) + " [" + std::to_string(p.pid) + "]");
    }
    if (holdsGpuWork(lane.kind)) {
        if (lane.gpu >= 0 && static_cast<size_t>(lane.gpu) < report.gpus.size()) {
            const Gpu& g = report.gpus[static_cast<size_t>(lane.gpu)];
            add("GPU", str(g.name_id) + " (device " + std::to_string(g.device_id) + ")");
        }
        // Context-wide synchronization and NCCL rows have no stream (-1, or 2^32-1 in nsys).
        if (!holdsDerivedEvents(lane.kind) && lane.stream_id >= 0 && lane.stream_id != UINT32_MAX)
            add("Stream", std::to_string(lane.stream_id));
    } else if (lane.thread >= 0 && static_cast<size_t>(lane.thread) < report.threads.size()) {
        const Thread& t = report.threads[static_cast<size_t>(lane.thread)];
        add("Thread", str(t.name_id) + " [" + std::to_string(t.tid) + "]");
    }
    if (i < ev.depth.size()) add("Depth", std::to_string(ev.depth[i]));

    switch (kind) {
        case EventKind::Kernel: {
            if (payload >= report.kernels.size()) break;
            const KernelInfo& k = report.kernels[payload];
            if (k.config < report.kernel_configs.size()) {
                const KernelConfig& c = report.kernel_configs[k.config];
                add("Grid", detailTriple(c.grid[0], c.grid[1], c.grid[2]));
                add("Block", detailTriple(c.block[0], c.block[1], c.block[2]));
                add("Registers/thread", std::to_string(c.registers_per_thread));
                add("Static shared memory", detailBytes(c.static_shared_bytes));
                add("Dynamic shared memory", detailBytes(c.dynamic_shared_bytes));
                add("Local memory/thread", detailBytes(c.local_bytes_per_thread));
                if (c.shared_executed_bytes != kNoSharedExecuted && c.shared_executed_bytes > 0)
                    add("Shared memory executed", detailBytes(c.shared_executed_bytes));
                if (const auto occupancy = kernelOccupancy(report, lane, c))
                    add("Theoretical occupancy", describeOccupancy(*occupancy));
                add("Launch type", launchTypeLabel(c.launch_type));
                add("Short name", str(c.short_name_id));
                // The symbol as compiled, for the tools that take it (cuobjdump, Nsight Compute's filters).
                if (c.mangled_name_id != KernelConfig::kNoMangledName && c.mangled_name_id != ev.name_id[i])
                    add("Mangled name", str(c.mangled_name_id));
                if (c.blocks_per_sm >= 0) add("Blocks/SM", printf3("%g", c.blocks_per_sm));
                if (c.warps_per_sm >= 0) add("Warps/SM", printf3("%g", c.warps_per_sm));
                if (c.est_achieved_occupancy_pct >= 0)
                    add("Est. achieved occupancy", printf3("%g %%", c.est_achieved_occupancy_pct));
            }
            add("Correlation id", std::to_string(k.correlation_id));
            const auto& nodes = report.kernel_graph_nodes;
            const auto node = std::lower_bound(nodes.begin(), nodes.end(), payload,
                                               [](const KernelGraphNode& n, uint32_t k) { return n.kernel < k; });
            if (node != nodes.end() && node->kernel == payload) {
                add("Graph node id", std::to_string(node->graph_node_id));
                addGraphApiEvents(report, true, node->graph_node_id, f);
            }
            break;
        }
        case EventKind::GraphExecution: {
            if (payload >= report.graph_executions.size()) break;
            const GraphExecutionInfo& g = report.graph_executions[payload];
            add("Graph id", std::to_string(g.graph_id));
            add("Graph exec id", std::to_string(g.graph_exec_id));
            add("Correlation id", std::to_string(g.correlation_id));
            addGraphApiEvents(report, false, g.graph_id, f);
            break;
        }
        case EventKind::GpuPageFault: {
            if (payload >= report.gpu_page_faults.size()) break;
            const GpuPageFaultInfo& p = report.gpu_page_faults[payload];
            add("Page faults", std::to_string(p.faults));
            add("Address", hexAddress(p.address));
            add("Access type", umAccessTypeLabel(p.access_type));
            break;
        }
        case EventKind::Memcpy: {
            if (payload >= report.memcpys.size()) break;
            const MemcpyInfo& m = report.memcpys[payload];
            add("Bytes", detailBytes(m.bytes));
            add("Throughput", detailThroughput(m.bytes, duration));
            add("Copy kind", copyKindLabel(m.copy_kind));
            add("Source memory", memKindLabel(m.src_kind));
            add("Destination memory", memKindLabel(m.dst_kind));
            add("Correlation id", std::to_string(m.correlation_id));
            break;
        }
        case EventKind::Memset: {
            if (payload >= report.memsets.size()) break;
            const MemsetInfo& m = report.memsets[payload];
            add("Bytes", detailBytes(m.bytes));
            add("Throughput", detailThroughput(m.bytes, duration));
            add("Value", std::to_string(m.value));
            add("Memory kind", memKindLabel(m.mem_kind));
            add("Correlation id", std::to_string(m.correlation_id));
            break;
        }
        case EventKind::CudaApiCall:
            if (payload != kNoPayload) add("Correlation id", std::to_string(payload));
            break;
        case EventKind::Sync: {
            if (payload >= report.syncs.size()) break;
            const SyncInfo& s = report.syncs[payload];
            add("Type", syncTypeLabel(s.sync_type));
            add("Correlation id", std::to_string(s.correlation_id));
            if (s.event_id != kNoEventId) add("Event id", std::to_string(s.event_id));
            if (s.event_sync_id != kNoEventSync) add("Event sync id", std::to_string(s.event_sync_id));
            break;
        }
        case EventKind::NvtxRange: {
            if (payload >= report.nvtx.size()) break;
            const NvtxInfo& n = report.nvtx[payload];
            add("Domain", n.domain_name_id == 0 ? std::string("default") : str(n.domain_name_id));
            if (n.has_color) {
                char color[8];
                std::snprintf(color, sizeof color, "#%06X", static_cast<unsigned>(n.color & 0xFFFFFFu));
                add("Color", color);
            }
            if (n.category != 0) add("Category", std::to_string(n.category));
            add("Style", n.start_end ? "start/end" : "push/pop");
            break;
        }
        case EventKind::ThreadState:
            add("State", std::string(threadRunStateName(threadStateOf(payload))));
            add(threadStateOf(payload) == ThreadRunState::Running ? "CPU" : "Left CPU",
                std::to_string(threadStateCpu(payload)));
            break;
        case EventKind::CoreRun:
            if (lane.cpu >= 0) add("CPU", std::to_string(lane.cpu));
            if (payload < report.threads.size()) {
                const Thread& t = report.threads[payload];
                add("Thread", str(t.name_id) + " [" + std::to_string(t.tid) + "]");
                if (t.process >= 0 && static_cast<size_t>(t.process) < report.processes.size()) {
                    const Process& p = report.processes[static_cast<size_t>(t.process)];
                    add("Process", str(p.name_id) + " [" + std::to_string(p.pid) + "]");
                }
            }
            break;
        case EventKind::OsRuntimeCall:
        case EventKind::MpiCall:
        case EventKind::OpenMpEvent:
        case EventKind::ProfilerOverhead:
            break;
    }
    return f;
}

uint32_t backtraceOf(const Report& report, EventRef ref) {
    if (ref.lane >= report.lanes.size()) return kNoStack;
    const Lane& lane = report.lanes[ref.lane];
    if (ref.index >= lane.events.size() || lane.thread < 0) return kNoStack;
    const CallBacktrace wanted{lane.thread, static_cast<uint8_t>(lane.kind), lane.events.start_ns[ref.index], 0};
    const auto it = std::lower_bound(report.backtraces.begin(), report.backtraces.end(), wanted,
                                     [](const CallBacktrace& a, const CallBacktrace& b) { return a.key() < b.key(); });
    return it != report.backtraces.end() && it->key() == wanted.key() ? it->stack : kNoStack;
}

std::vector<DetailField> instantDetails(const Report& report, InstantRef ref) {
    std::vector<DetailField> f;
    if (ref.lane >= report.lanes.size()) return f;
    const Lane& lane = report.lanes[ref.lane];
    if (ref.index >= lane.instants.size()) return f;
    auto add = [&](std::string label, std::string value) { f.push_back({std::move(label), std::move(value)}); };
    auto str = [&](uint32_t id) { return id < report.strings.size() ? std::string(report.str(id)) : std::string(); };
    add("Name", lane.kind == LaneKind::CpuSamples ? std::string("CPU sample") : str(lane.instants.name_id[ref.index]));
    add("Kind", std::string(laneKindName(lane.kind)));
    add("Time", std::to_string(lane.instants.time_ns[ref.index]) + " ns");
    add("Lane", str(lane.name_id));
    if (lane.process >= 0 && static_cast<size_t>(lane.process) < report.processes.size()) {
        const Process& p = report.processes[static_cast<size_t>(lane.process)];
        add("Process", str(p.name_id) + " [" + std::to_string(p.pid) + "]");
    }
    if (lane.thread >= 0 && static_cast<size_t>(lane.thread) < report.threads.size()) {
        const Thread& t = report.threads[static_cast<size_t>(lane.thread)];
        add("Thread", str(t.name_id) + " [" + std::to_string(t.tid) + "]");
    }
    const uint32_t payload = lane.instants.payload[ref.index];
    if (lane.kind == LaneKind::GpuStream && payload < report.cuda_events.size()) {
        const CudaEventInfo& e = report.cuda_events[payload];
        if (lane.stream_id >= 0 && lane.stream_id != UINT32_MAX) add("Stream", std::to_string(lane.stream_id));
        add("Event id", std::to_string(e.event_id));
        add("Event sync id", std::to_string(e.event_sync_id));
        add("Correlation id", std::to_string(e.correlation_id));
    } else if (lane.kind == LaneKind::UmCpuPageFaults && payload < report.cpu_page_faults.size()) {
        const CpuPageFaultInfo& p = report.cpu_page_faults[payload];
        add("Address", hexAddress(p.address));
        add("CPU instruction", hexAddress(p.fault_pc));
        if (p.source_file_id != 0) add("Source", str(p.source_file_id) + ":" + std::to_string(p.source_line));
    } else if (const PytorchMemoryEvent* m = pytorchMemoryOf(report, lane, ref.index)) {
        add("Device", pytorchDeviceLabel(m->device_type, m->device_id));
        add("Bytes", m->bytes < 0 ? "-" + detailBytes(static_cast<uint64_t>(-m->bytes)) + " (a free)"
                                  : detailBytes(static_cast<uint64_t>(m->bytes)));
        add("Address", hexAddress(static_cast<uint64_t>(m->address)));
        add("Total allocated", detailBytes(static_cast<uint64_t>(std::max<int64_t>(m->total_allocated, 0))));
        add("Total reserved", detailBytes(static_cast<uint64_t>(std::max<int64_t>(m->total_reserved, 0))));
    }
    return f;
}

uint32_t sampleStackOf(const Report& report, InstantRef ref) {
    if (ref.lane >= report.lanes.size()) return kNoStack;
    const Lane& lane = report.lanes[ref.lane];
    if (lane.kind != LaneKind::CpuSamples || ref.index >= lane.instants.size()) return kNoStack;
    return lane.instants.payload[ref.index];
}

std::vector<StackFrameText> stackFrames(const Report& report, uint32_t stack) {
    std::vector<StackFrameText> frames;
    for (uint32_t frame : report.stacks.framesOf(stack))
        frames.push_back({std::string(report.str(report.stacks.frame_function[frame])),
                          std::string(report.str(report.stacks.frame_module[frame]))});
    return frames;
}

}  // namespace lanescope
