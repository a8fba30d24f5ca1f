#include "exporters/perfetto/PerfettoWriter.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "formats/perfetto/PerfettoConventions.h"
#include "model/Correlation.h"
#include "model/EventDetails.h"
#include "perfetto/perfetto_subset.pb.h"  // generated, in the build tree

namespace lanescope {
namespace {

namespace pb = lanescope::perfetto_pb;

constexpr uint32_t kSequenceId = 1;

enum class OpType : uint8_t { Begin, End, Instant, Counter };

// One track event to write. For Begin: lane/event of the slice; Instant: lane/instant;
// Counter: counter/sample.
struct Op {
    int64_t ts;
    uint32_t track;  // index into the track uuids
    uint32_t name;
    uint32_t a, b;
    OpType type;
};

// Packets go to "<out>.partial" and the file takes its name only once complete, so a failed
// or interrupted export never leaves a half trace under the name asked for.
class Output {
public:
    explicit Output(const std::filesystem::path& path)
        : path_(path), partial_(path.string() + ".partial"), file_(partial_, std::ios::binary | std::ios::trunc) {}
    ~Output() {
        std::error_code ec;
        if (!committed_) std::filesystem::remove(partial_, ec);
    }
    bool ok() const { return static_cast<bool>(file_); }
    void packet(const pb::TracePacket& p) {
        p.SerializeToString(&bytes_);
        buffer_.push_back('\x0A');
        uint64_t n = bytes_.size();
        while (n >= 0x80) {
            buffer_.push_back(static_cast<char>((n & 0x7F) | 0x80));
            n >>= 7;
        }
        buffer_.push_back(static_cast<char>(n));
        buffer_ += bytes_;
        ++packets;
        if (buffer_.size() >= (1u << 20)) flush();
    }
    bool close() {
        flush();
        file_.close();
        if (file_.fail()) return false;
        std::error_code ec;
        std::filesystem::rename(partial_, path_, ec);
        committed_ = !ec;
        return committed_;
    }
    uint64_t packets = 0;

private:
    void flush() {
        file_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
        buffer_.clear();
    }
    std::filesystem::path path_, partial_;
    std::ofstream file_;
    std::string buffer_, bytes_;
    bool committed_ = false;
};

// True when the lane's events nest (each event lies inside the enclosing open one or
// after it), so one track with a begin/end stack reproduces them.
bool nests(const IntervalColumns& ev) {
    std::vector<int64_t> ends;
    for (size_t i = 0; i < ev.size(); ++i) {
        while (!ends.empty() && ends.back() <= ev.start_ns[i]) ends.pop_back();
        if (!ends.empty() && ev.endNs(i) > ends.back()) return false;
        ends.push_back(ev.endNs(i));
    }
    return true;
}

uint64_t refKey(uint32_t lane, uint32_t index) { return (uint64_t{lane} << 32) | index; }

// A thread's (pid, tid) as its thread track's descriptor gives them (pid 0 without a process).
std::pair<int32_t, int32_t> threadIds(const Report& report, size_t thread) {
    const Thread& th = report.threads[thread];
    const int32_t pid = th.process >= 0 ? static_cast<int32_t>(report.processes[th.process].pid) : 0;
    return {pid, static_cast<int32_t>(th.tid)};
}

// The name of a lane's track: a core's "CPU <n>", which the importer reads the core number
// back from; NCCL's "NCCL"; else the lane's own name.
std::string trackName(const Report& report, const Lane& lane) {
    if (lane.kind == LaneKind::CpuCore) return "CPU " + std::to_string(lane.cpu);
    if (lane.kind == LaneKind::Nccl) return "NCCL";
    return std::string(report.str(lane.name_id));
}

// Writes a slice's debug annotations, interning their names once per trace (one iid space
// for machine keys and display labels; they never collide: machine keys start "lanescope.").
class AnnotationWriter {
public:
    explicit AnnotationWriter(const Report& report) : string_iids_(report.strings.size(), 0) {}

    // The event's kind and side-table fields under the machine keys of
    // formats/perfetto/PerfettoConventions.h. Fields whose side-table row is missing are left
    // out, as the Details panel leaves them out.
    void machine(const Report& report, EventRef ref, pb::TrackEvent& e, pb::TracePacket& packet) {
        using K = perfetto_format::Key;
        const Lane& lane = report.lanes[ref.lane];
        const EventKind kind = lane.events.kind[ref.index];
        const uint32_t payload = lane.events.payload[ref.index];
        put(K::Kind, e, packet)->set_string_value(std::string(perfetto_format::categoryOf(kind)));
        auto u = [&](K key, uint64_t value) { put(key, e, packet)->set_uint_value(value); };
        switch (kind) {
            case EventKind::OsRuntimeCall:
            case EventKind::MpiCall:
            case EventKind::OpenMpEvent:
            case EventKind::ProfilerOverhead:
            case EventKind::GpuPageFault:
                break;
            case EventKind::ThreadState:
                u(K::ThreadState, static_cast<uint64_t>(threadStateOf(payload)));
                u(K::Cpu, threadStateCpu(payload));
                break;
            case EventKind::CoreRun: {
                if (payload >= report.threads.size()) break;
                const auto [pid, tid] = threadIds(report, payload);
                put(K::Pid, e, packet)->set_int_value(pid);
                put(K::Tid, e, packet)->set_int_value(tid);
                break;
            }
            case EventKind::GraphExecution: {
                if (payload >= report.graph_executions.size()) break;
                const GraphExecutionInfo& g = report.graph_executions[payload];
                u(K::CorrelationId, g.correlation_id);
                u(K::GraphId, g.graph_id);
                u(K::GraphExecId, g.graph_exec_id);
                break;
            }
            case EventKind::CudaApiCall:
                if (payload != kNoPayload) u(K::CorrelationId, payload);
                break;
            case EventKind::Kernel: {
                if (payload >= report.kernels.size()) break;
                const KernelInfo& k = report.kernels[payload];
                u(K::CorrelationId, k.correlation_id);
                if (k.config >= report.kernel_configs.size()) break;
                const KernelConfig& c = report.kernel_configs[k.config];
                u(K::GridX, c.grid[0]);
                u(K::GridY, c.grid[1]);
                u(K::GridZ, c.grid[2]);
                u(K::BlockX, c.block[0]);
                u(K::BlockY, c.block[1]);
                u(K::BlockZ, c.block[2]);
                u(K::RegistersPerThread, c.registers_per_thread);
                u(K::StaticSharedBytes, c.static_shared_bytes);
                u(K::DynamicSharedBytes, c.dynamic_shared_bytes);
                u(K::LocalBytesPerThread, c.local_bytes_per_thread);
                if (c.shared_executed_bytes != kNoSharedExecuted) u(K::SharedExecutedBytes, c.shared_executed_bytes);
                u(K::LaunchType, c.launch_type);
                if (c.short_name_id != 0)
                    put(K::ShortName, e, packet)->set_string_value(std::string(report.str(c.short_name_id)));
                if (c.mangled_name_id != KernelConfig::kNoMangledName)
                    put(K::MangledName, e, packet)->set_string_value(std::string(report.str(c.mangled_name_id)));
                if (c.local_memory_total != KernelConfig::kNoLocalMemoryTotal)
                    u(K::LocalMemoryTotal, c.local_memory_total);
                if (c.cache_config != KernelConfig::kNoCacheConfig) u(K::CacheConfig, c.cache_config);
                if (c.shared_memory_limit_config != KernelConfig::kNoCacheConfig)
                    u(K::SharedLimitConfig, c.shared_memory_limit_config);
                break;
            }
            case EventKind::Memcpy: {
                if (payload >= report.memcpys.size()) break;
                const MemcpyInfo& m = report.memcpys[payload];
                u(K::CorrelationId, m.correlation_id);
                u(K::Bytes, m.bytes);
                u(K::CopyKind, static_cast<uint64_t>(m.copy_kind));
                u(K::SrcMemKind, static_cast<uint64_t>(m.src_kind));
                u(K::DstMemKind, static_cast<uint64_t>(m.dst_kind));
                break;
            }
            case EventKind::Memset: {
                if (payload >= report.memsets.size()) break;
                const MemsetInfo& m = report.memsets[payload];
                u(K::CorrelationId, m.correlation_id);
                u(K::Bytes, m.bytes);
                u(K::MemsetValue, m.value);
                u(K::MemKind, static_cast<uint64_t>(m.mem_kind));
                break;
            }
            case EventKind::Sync: {
                if (payload >= report.syncs.size()) break;
                const SyncInfo& s = report.syncs[payload];
                u(K::CorrelationId, s.correlation_id);
                u(K::SyncType, s.sync_type);
                break;
            }
            case EventKind::NvtxRange: {
                if (payload >= report.nvtx.size()) break;
                const NvtxInfo& n = report.nvtx[payload];
                if (n.domain_name_id != 0)
                    put(K::NvtxDomain, e, packet)->set_string_value(std::string(report.str(n.domain_name_id)));
                if (n.has_color) u(K::NvtxColor, n.color);
                if (n.category != 0) u(K::NvtxCategory, n.category);
                put(K::NvtxStartEnd, e, packet)->set_bool_value(n.start_end);
                break;
            }
        }
    }

    // The event's own fields as the Details panel lists them after the generic ones (display
    // text under display labels).
    void display(const Report& report, EventRef ref, pb::TrackEvent& e, pb::TracePacket& packet) {
        const std::vector<DetailField> fields = eventDetails(report, ref);
        auto own = std::find_if(fields.begin(), fields.end(), [](const DetailField& f) { return f.label == "Depth"; });
        for (auto f = own == fields.end() ? own : own + 1; f != fields.end(); ++f) {
            auto [it, added] = labels_.try_emplace(f->label, 0);
            if (added) it->second = intern(f->label, packet);
            pb::DebugAnnotation* a = e.add_debug_annotations();
            a->set_name_iid(it->second);
            a->set_string_value(f->value);
        }
    }

    // A CPU sample's call stack under lanescope.stack: its frames innermost first, each a
    // dictionary of its function and module, names and values interned. Nothing for kNoStack.
    void stack(const Report& report, uint32_t stack, pb::TrackEvent& e, pb::TracePacket& packet) {
        if (stack >= report.stacks.nodeCount()) return;
        pb::DebugAnnotation* a = put(perfetto_format::Key::Stack, e, packet);
        for (const uint32_t f : report.stacks.framesOf(stack)) {
            pb::DebugAnnotation* frame = a->add_array_values();
            frameEntry(*frame, perfetto_format::FrameField::Function, report.stacks.frame_function[f], report, packet);
            frameEntry(*frame, perfetto_format::FrameField::Module, report.stacks.frame_module[f], report, packet);
        }
    }

private:
    pb::DebugAnnotation* put(perfetto_format::Key key, pb::TrackEvent& e, pb::TracePacket& packet) {
        uint64_t& iid = keys_[static_cast<size_t>(key)];
        if (iid == 0) iid = intern(perfetto_format::keyName(key), packet);
        pb::DebugAnnotation* a = e.add_debug_annotations();
        a->set_name_iid(iid);
        return a;
    }
    // One entry of a frame: its name and the string `text` (a report string id), both interned.
    void frameEntry(pb::DebugAnnotation& frame, perfetto_format::FrameField field, uint32_t text, const Report& report,
                    pb::TracePacket& packet) {
        uint64_t& nameIid = frame_field_iids_[static_cast<size_t>(field)];
        if (nameIid == 0)
            nameIid = intern(field == perfetto_format::FrameField::Function ? perfetto_format::kFrameFunction
                                                                            : perfetto_format::kFrameModule,
                             packet);
        pb::DebugAnnotation* entry = frame.add_dict_entries();
        entry->set_name_iid(nameIid);
        entry->set_string_value_iid(internValue(text, report, packet));
    }
    uint64_t internValue(uint32_t text, const Report& report, pb::TracePacket& packet) {
        uint64_t& iid = string_iids_[text];
        if (iid != 0) return iid;
        iid = next_value_++;
        pb::InternedString* s = packet.mutable_interned_data()->add_debug_annotation_string_values();
        s->set_iid(iid);
        s->set_str(std::string(report.str(text)));
        return iid;
    }
    uint64_t intern(std::string_view name, pb::TracePacket& packet) {
        pb::DebugAnnotationName* n = packet.mutable_interned_data()->add_debug_annotation_names();
        n->set_iid(next_);
        n->set_name(std::string(name));
        return next_++;
    }

    uint64_t next_ = 1;                                        // interned name ids start at 1
    std::array<uint64_t, perfetto_format::kKeyCount> keys_{};  // 0: not interned yet
    std::array<uint64_t, 2> frame_field_iids_{};               // by FrameField; 0: not interned yet
    std::unordered_map<std::string, uint64_t> labels_;         // display label -> iid
    uint64_t next_value_ = 1;                                  // interned string value ids start at 1
    std::vector<uint64_t> string_iids_;                        // report string id -> value iid; 0: not yet
};

}  // namespace

bool writePerfetto(const Report& report, const std::filesystem::path& outPath, std::string& error,
                   PerfettoWriteStats* statsOut, const PerfettoWriteOptions& options) {
    PerfettoWriteStats stats;
    Output out(outPath);
    if (!out.ok()) {
        error = outPath.string() + ": cannot be written";
        return false;
    }
    std::vector<uint64_t> uuids;  // track index -> uuid
    pb::TracePacket packet;
    auto descriptorPacket = [&](uint64_t parent) -> pb::TrackDescriptor* {
        packet.Clear();
        packet.set_trusted_packet_sequence_id(kSequenceId);
        if (out.packets == 0) packet.set_sequence_flags(pb::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED);
        pb::TrackDescriptor* d = packet.mutable_track_descriptor();
        uuids.push_back(uuids.size() + 1);
        d->set_uuid(uuids.back());
        if (parent != 0) d->set_parent_uuid(parent);
        return d;
    };
    auto str = [&](uint32_t id) { return std::string(report.str(id)); };

    std::vector<uint64_t> processUuid(report.processes.size()), threadUuid(report.threads.size()),
        gpuUuid(report.gpus.size());
    for (size_t p = 0; p < report.processes.size(); ++p) {
        pb::TrackDescriptor* d = descriptorPacket(0);
        d->mutable_process()->set_pid(static_cast<int32_t>(report.processes[p].pid));
        d->mutable_process()->set_process_name(str(report.processes[p].name_id));
        processUuid[p] = d->uuid();
        out.packet(packet);
    }
    for (size_t t = 0; t < report.threads.size(); ++t) {
        const Thread& th = report.threads[t];
        pb::TrackDescriptor* d = descriptorPacket(0);
        const auto [pid, tid] = threadIds(report, t);
        if (th.process >= 0) d->mutable_thread()->set_pid(pid);
        d->mutable_thread()->set_tid(tid);
        d->mutable_thread()->set_thread_name(str(th.name_id));
        threadUuid[t] = d->uuid();
        out.packet(packet);
    }
    for (size_t g = 0; g < report.gpus.size(); ++g) {
        pb::TrackDescriptor* d = descriptorPacket(0);
        d->set_name("GPU " + std::to_string(report.gpus[g].device_id) + ": " + str(report.gpus[g].name_id));
        gpuUuid[g] = d->uuid();
        out.packet(packet);
    }

    // Flows: each (API call, GPU operation) pair gets its own id.
    std::vector<std::pair<uint64_t, uint64_t>> flowsOut, flowsIn;  // (event key, flow id)
    {
        CorrelationIndex index(report);
        uint64_t next = 1;
        for (uint32_t li = 0; li < report.lanes.size(); ++li) {
            const Lane& lane = report.lanes[li];
            if (holdsDerivedEvents(lane.kind)) continue;
            for (uint32_t i = 0; i < lane.events.size(); ++i) {
                if (lane.events.kind[i] != EventKind::CudaApiCall) continue;
                for (const EventRef& op : index.launchedBy({li, i})) {
                    flowsOut.push_back({refKey(li, i), next});
                    flowsIn.push_back({refKey(op.lane, op.index), next});
                    ++next;
                }
            }
        }
        std::sort(flowsOut.begin(), flowsOut.end());
        std::sort(flowsIn.begin(), flowsIn.end());
        stats.flows = next - 1;
    }

    // A GPU's work for one process and CUDA context sits under a track of its own, named
    // "python3 [1365], context 1", as Nsight groups it; the importer reads the pid and context
    // back from that name. Made on first use.
    std::map<std::tuple<int32_t, int32_t, int64_t>, uint64_t> gpuProcessUuid;
    auto gpuProcessTrack = [&](const Lane& lane) {
        auto [it, added] = gpuProcessUuid.try_emplace({lane.gpu, lane.process, lane.context_id}, 0);
        if (added) {
            const Process& p = report.processes[lane.process];
            pb::TrackDescriptor* d = descriptorPacket(gpuUuid[lane.gpu]);
            d->set_name(str(p.name_id) + " [" + std::to_string(p.pid) + "]" +
                        (lane.context_id >= 0 ? ", context " + std::to_string(lane.context_id) : ""));
            it->second = d->uuid();
            out.packet(packet);
        }
        return it->second;
    };

    std::vector<Op> ops;
    for (uint32_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& lane = report.lanes[li];
        // Derived lanes are not exported, nor yet unified memory.
        if (lane.kind == LaneKind::NvtxGpuProjection || lane.kind == LaneKind::UnifiedMemory ||
            lane.kind == LaneKind::UmCpuPageFaults)
            continue;
        // A stream's instants are CUDA event records, which a Perfetto trace does not carry yet.
        const size_t instants = lane.kind == LaneKind::GpuStream ? 0 : lane.instants.size();
        if (lane.events.size() == 0 && instants == 0) continue;
        const IntervalColumns& ev = lane.events;
        uint64_t parent = 0;
        if (lane.gpu >= 0 && lane.process >= 0 && !holdsDerivedEvents(lane.kind))
            parent = gpuProcessTrack(lane);
        else if (lane.gpu >= 0)
            parent = gpuUuid[lane.gpu];
        else if (lane.thread >= 0)
            parent = threadUuid[lane.thread];
        else if (lane.process >= 0)
            parent = processUuid[lane.process];
        const std::string name = trackName(report, lane);
        std::vector<Op> laneOps;
        std::vector<uint32_t> laneTracks;
        auto newTrack = [&](const std::string& trackName) {
            pb::TrackDescriptor* d = descriptorPacket(parent);
            d->set_name(trackName);
            out.packet(packet);
            laneTracks.push_back(static_cast<uint32_t>(uuids.size() - 1));
            return laneTracks.back();
        };
        if (lane.depth_count <= 1 || nests(ev)) {
            const uint32_t track = newTrack(name);
            std::vector<uint32_t> open;
            auto close = [&](uint32_t e) { laneOps.push_back({ev.endNs(e), track, 0, li, e, OpType::End}); };
            for (uint32_t i = 0; i < ev.size(); ++i) {
                while (!open.empty() && ev.endNs(open.back()) <= ev.start_ns[i]) {
                    close(open.back());
                    open.pop_back();
                }
                laneOps.push_back({ev.start_ns[i], track, ev.name_id[i], li, i, OpType::Begin});
                open.push_back(i);
            }
            while (!open.empty()) {
                close(open.back());
                open.pop_back();
            }
        } else {
            // Rows that overlap without nesting: one flat track per depth.
            std::vector<Op> merged;
            for (uint32_t d = 0; d < lane.depth_count; ++d) {
                const uint32_t track = newTrack(name + " [row " + std::to_string(d) + "]");
                std::vector<Op> row;
                for (uint32_t i : lane.atDepth(d)) {
                    row.push_back({ev.start_ns[i], track, ev.name_id[i], li, i, OpType::Begin});
                    row.push_back({ev.endNs(i), track, 0, li, i, OpType::End});
                }
                laneOps.insert(laneOps.end(), row.begin(), row.end());
            }
        }
        if (instants > 0) {
            if (laneTracks.empty()) newTrack(name);
            for (uint32_t i = 0; i < instants; ++i)
                laneOps.push_back(
                    {lane.instants.time_ns[i], laneTracks.front(), lane.instants.name_id[i], li, i, OpType::Instant});
        }
        ops.insert(ops.end(), laneOps.begin(), laneOps.end());
        stats.slices += ev.size();
        stats.instants += instants;
    }
    for (uint32_t ci = 0; ci < report.counters.size(); ++ci) {
        const Counter& c = report.counters[ci];
        if (c.derived) continue;  // the import of the export makes it again
        uint64_t parent = 0;
        if (c.gpu >= 0)
            parent = gpuUuid[c.gpu];
        else if (c.process >= 0)
            parent = processUuid[c.process];
        pb::TrackDescriptor* d = descriptorPacket(parent);
        d->set_name(str(c.name_id));
        auto* counter = d->mutable_counter();
        if (c.unit_id != 0) counter->set_unit_name(str(c.unit_id));
        out.packet(packet);
        const auto track = static_cast<uint32_t>(uuids.size() - 1);
        for (uint32_t s = 0; s < c.time_ns.size(); ++s) ops.push_back({c.time_ns[s], track, 0, ci, s, OpType::Counter});
        stats.counter_samples += c.time_ns.size();
    }
    stats.tracks = uuids.size();

    // Time order overall; each track's own order (its nesting) is kept on ties.
    std::stable_sort(ops.begin(), ops.end(), [](const Op& x, const Op& y) { return x.ts < y.ts; });
    std::vector<bool> interned(report.strings.size(), false);
    AnnotationWriter annotations(report);
    std::unordered_map<std::string_view, uint64_t> categories;  // category -> interned id, from 1
    for (const Op& op : ops) {
        packet.Clear();
        if (op.ts < 0) ++stats.negative_times_clamped;
        packet.set_timestamp(static_cast<uint64_t>(std::max<int64_t>(op.ts, 0)));
        packet.set_trusted_packet_sequence_id(kSequenceId);
        if (out.packets == 0)
            packet.set_sequence_flags(pb::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED);
        else
            packet.set_sequence_flags(pb::TracePacket::SEQ_NEEDS_INCREMENTAL_STATE);
        pb::TrackEvent* e = packet.mutable_track_event();
        e->set_track_uuid(uuids[op.track]);
        switch (op.type) {
            case OpType::Begin:
                e->set_type(pb::TrackEvent::TYPE_SLICE_BEGIN);
                break;
            case OpType::End:
                e->set_type(pb::TrackEvent::TYPE_SLICE_END);
                break;
            case OpType::Instant:
                e->set_type(pb::TrackEvent::TYPE_INSTANT);
                break;
            case OpType::Counter:
                e->set_type(pb::TrackEvent::TYPE_COUNTER);
                e->set_double_counter_value(report.counters[op.a].value[op.b]);
                break;
        }
        if (op.type == OpType::Begin || op.type == OpType::Instant) {
            if (!interned[op.name]) {
                interned[op.name] = true;
                pb::EventName* n = packet.mutable_interned_data()->add_event_names();
                n->set_iid(uint64_t{op.name} + 1);
                n->set_name(str(op.name));
            }
            e->set_name_iid(uint64_t{op.name} + 1);
        }
        // The event's kind as its category (an instant: its lane's), which the importer reads back.
        if (op.type == OpType::Begin || op.type == OpType::Instant) {
            const Lane& lane = report.lanes[op.a];
            const std::string_view category = op.type == OpType::Begin
                                                  ? perfetto_format::categoryOf(lane.events.kind[op.b])
                                                  : perfetto_format::instantCategoryOf(lane.kind);
            auto [cat, addedCategory] = categories.try_emplace(category, categories.size() + 1);
            if (addedCategory) {
                pb::EventCategory* c = packet.mutable_interned_data()->add_event_categories();
                c->set_iid(cat->second);
                c->set_name(std::string(category));
            }
            e->add_category_iids(cat->second);
        }
        // A CPU sample's call stack, which the importer interns again.
        if (op.type == OpType::Instant && report.lanes[op.a].kind == LaneKind::CpuSamples)
            annotations.stack(report, report.lanes[op.a].instants.payload[op.b], *e, packet);
        if (op.type == OpType::Begin) {
            const EventRef ref{op.a, op.b};
            // The event's fields under machine keys, numbers as numbers: what a reader reads.
            annotations.machine(report, ref, *e, packet);
            // The same fields as the Details panel shows them ("Grid" = "128 × 1 × 1"), for
            // people reading the trace in ui.perfetto.dev; no reader looks at them.
            if (options.display_annotations) annotations.display(report, ref, *e, packet);
            const uint64_t key = refKey(op.a, op.b);
            auto range = [&](const std::vector<std::pair<uint64_t, uint64_t>>& flows) {
                return std::equal_range(flows.begin(), flows.end(), std::pair<uint64_t, uint64_t>{key, 0},
                                        [](const auto& x, const auto& y) { return x.first < y.first; });
            };
            for (auto [it, end] = range(flowsOut); it != end; ++it) e->add_flow_ids(it->second);
            for (auto [it, end] = range(flowsIn); it != end; ++it) e->add_terminating_flow_ids(it->second);
        }
        out.packet(packet);
    }
    stats.packets = out.packets;
    if (!out.close()) {
        error = outPath.string() + ": write failed (disk full?)";
        return false;
    }
    if (statsOut) *statsOut = stats;
    return true;
}

}  // namespace lanescope
