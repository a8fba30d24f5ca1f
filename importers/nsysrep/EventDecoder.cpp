#include "importers/nsysrep/EventDecoder.h"

#include <algorithm>

#include "importers/nsys/TableScan.h"
#include "importers/nsysrep/ProtoReader.h"
#include "model/DiagnosticKinds.h"

namespace lanescope::nsysrep {
namespace {

using nsys::EventChunk;
using nsys::LaneKey;

// Event types (ENUM_NSYS_EVENT_TYPE of the export) and their payload fields.
enum Type : uint32_t {
    kProcess = 27,
    kSample = 28,
    kCpuSample = 31,
    kNvtxCategory = 33,
    kNvtxMark = 34,
    kNvtxThreadName = 39,
    kSchedule = 41,
    kCpuMarker = 47,
    kCpuTrace = 48,
    kDiagnostic = 49,
    kNvtxPushPop = 59,
    kNvtxStartEnd = 60,
    kNvtxDomainCreate = 75,
    kKernel = 79,
    kMemory = 80,
    kSync = 106,
    kGraphNodeCreation = 113,
    kCudaMemoryUsage = 117,
    kUmCpuPageFault = 119,
    kUmGpuPageFault = 120,
    kCudaEventRecord = 127,
    kGraphTrace = 130,
    kGraphExecCreation = 131,
    kGraphCreation = 132,
};
// Classes of CPU-trace events (payload 108, field 6), as the export's eventClass.
enum CpuClass : uint64_t {
    kRuntime = 0,
    kDriver = 1,
    kOverhead = 3,
    kOsRuntime = 27,
    kOsRuntimeBegin = 31,
    kOsRuntimeEnd = 32,
    kRuntimeWithBacktrace = 67,
    kOpenMp = 78,          // an OpenMP event (OPENMP_EVENT_KIND_* of the export); field 34 holds its kind's ids
    kGraphNodeEvent = 77,  // CUDA_GRAPH_NODE_EVENTS: sub-message 33 { 1 graphNodeId, 2 originalGraphNodeId }
    kGraphExecEvent = 94,  // CUDA_GRAPH_EVENTS, an instantiation: sub-message 37 { 1 graphId, 2 graphExecId }
    kGraphEvent = 95,      // CUDA_GRAPH_EVENTS, a creation: sub-message 38 { 1 graphId }
};
// Classes of GPU activity (payload 107, field 7).
enum GpuClass : uint64_t {
    kMemcpy = 1,
    kMemset = 2,
    kKernelClass = 3,
    kSyncClass = 5,
    kEventRecordClass = 6,
    kGraphClass = 7
};

uint32_t clampU32(uint64_t v) { return static_cast<uint32_t>(std::min<uint64_t>(v, UINT32_MAX)); }
uint16_t clampU16(uint64_t v) { return static_cast<uint16_t>(std::min<uint64_t>(v, 65535)); }

// The fields of one message by number (the last occurrence wins, as protobuf's own parsers):
// numbers below 32 in slots, and the one sub-message numbered 100 to 127 that a payload holds
// (101 kernel, 102 memcpy, 103 memset, 105 sync). Absent fields read as 0. Only what is set is
// written: this runs once per event and sub-message.
struct Fields {
    static constexpr uint32_t kSlots = 32;
    // A length-delimited field's content. Plain, not string_view, so that the slots are left
    // unset rather than cleared (768 bytes a message): `present` says which are set.
    struct Span {
        const char* data;
        size_t size;
    };
    uint64_t value_[kSlots];
    Span bytes_[kSlots];
    uint32_t present = 0;  // bit n: field n seen
    uint32_t sub_number = 0;
    std::string_view sub;
    bool has(uint32_t n) const { return n < kSlots && (present >> n) & 1; }
    uint64_t value(uint32_t n) const { return has(n) ? value_[n] : 0; }
    int64_t i64(uint32_t n) const { return static_cast<int64_t>(value(n)); }
    std::string_view bytes(uint32_t n) const {
        if (n == sub_number) return sub;
        return has(n) ? std::string_view(bytes_[n].data, bytes_[n].size) : std::string_view();
    }
};

void readFields(std::string_view message, uint64_t offset, Fields& out, EventChunk& chunk) {
    ProtoReader reader(message, offset);
    for (ProtoField f; reader.next(f);) {
        if (f.number < Fields::kSlots) {
            out.value_[f.number] = f.value;
            out.bytes_[f.number] = {f.bytes.data(), f.bytes.size()};
            out.present |= uint32_t{1} << f.number;
        } else if (f.number >= 100 && f.number < 128 && f.wire == 2) {
            out.sub_number = f.number;
            out.sub = f.bytes;
        } else if (f.number >= 128) {
            countDiagnostic(chunk.diagnostics, Diag::NsysRepUnknownField);
        }  // 32 to 127: fields this reader does not map (new ones appear in every version)
    }
}

bool validSpan(EventChunk& chunk, const Fields& p, uint32_t startField, uint32_t endField, Diag withoutEnd) {
    if (!p.has(startField) || !p.has(endField)) {
        countDiagnostic(chunk.diagnostics, withoutEnd);
        return false;
    }
    const int64_t start = p.i64(startField), end = p.i64(endField);
    if (!nsys::validTime(chunk, start) || !nsys::validTime(chunk, end)) return false;
    if (end < start) {
        countDiagnostic(chunk.diagnostics, Diag::NegativeDuration);
        return false;
    }
    return true;
}

class Decoder {
public:
    Decoder(const nsys::ReportBuilder& builder, const VersionQuirks& quirks, TableChunks& chunks, BlockExtras& extras)
        : builder_(builder), quirks_(quirks), chunks_(chunks), extras_(extras) {}

    void event(std::string_view message, uint64_t offset) {
        ProtoReader reader(message, offset);
        uint64_t type = 0;
        std::string_view payload;
        uint32_t payloadField = 0;
        uint64_t payloadOffset = 0;
        for (ProtoField f; reader.next(f);) {
            if (f.is(1, 0))
                type = f.value;
            else if (f.number >= 100 && f.wire == 2) {
                payload = f.bytes;
                payloadField = f.number;
                payloadOffset = reader.offsetOf(f.bytes);
            }
        }
        switch (type) {
            case kKernel:
            case kMemory:
            case kSync:
            case kCudaEventRecord:
            case kGraphTrace:
                if (payloadField == 107) return gpuActivity(payload, payloadOffset);
                break;
            case kCpuTrace:
            case kCpuMarker:
            case kGraphNodeCreation:
            case kGraphExecCreation:
            case kGraphCreation:
                if (payloadField == 108) return cpuTrace(payload, payloadOffset);
                break;
            case kUmCpuPageFault:
                if (payloadField == 124) return cpuPageFault(payload, payloadOffset);
                break;
            case kUmGpuPageFault:
                if (payloadField == 125) return gpuPageFault(payload, payloadOffset);
                break;
            case kDiagnostic:
                if (payloadField == 110) return nsysMessage(payload, payloadOffset);
                break;
            case kNvtxPushPop:
            case kNvtxStartEnd:
            case kNvtxMark:
            case kNvtxDomainCreate:
            case kNvtxCategory:
            case kNvtxThreadName:
                if (payloadField == 102) return nvtx(type, payload, payloadOffset);
                break;
            case kProcess:
                if (payloadField == 113) return process(payload, payloadOffset);
                break;
            case kCudaMemoryUsage:
                if (payloadField == 123) return memoryUsage(payload, payloadOffset);
                break;
            case kCpuSample:
                if (payloadField == 104) return cpuSample(payload, payloadOffset);
                break;
            case kSchedule:
                if (payloadField == 106) return schedule(payload, payloadOffset);
                break;
            case kSample:  // mmap records: the export has no table of them
                return;
            default:
                break;
        }
        countDiagnostic(chunk_->diagnostics, Diag::NsysRepUnknownEventType);
    }

private:
    void gpuActivity(std::string_view payload, uint64_t offset) {
        Fields p;
        readFields(payload, offset, p, *chunk_);
        const LaneKey lane{LaneKind::GpuStream, p.i64(8), p.i64(4), p.i64(6), p.i64(5)};
        const uint32_t correlation = clampU32(p.value(3));
        switch (p.value(7)) {
            case kKernelClass:
                chunk_ = &chunks_.kernels;
                return kernel(p, lane, correlation, offset);
            case kMemcpy:
                chunk_ = &chunks_.memcpy;
                return memcpy(p, lane, correlation, offset);
            case kMemset:
                chunk_ = &chunks_.memset;
                return memset(p, lane, correlation, offset);
            case kSyncClass:
                chunk_ = &chunks_.sync;
                return sync(p, lane, correlation, offset);
            case kGraphClass:
                chunk_ = &chunks_.graphs;
                return graphExecution(p, lane, correlation, offset);
            case kEventRecordClass:
                chunk_ = &chunks_.cuda_events;
                return eventRecord(p, lane, correlation, offset);
            default:
                countDiagnostic(chunk_->diagnostics, Diag::NsysRepUnknownEventType);
        }
    }

    void kernel(const Fields& p, const LaneKey& lane, uint32_t correlation, uint64_t offset) {
        if (!validSpan(*chunk_, p, 1, 2, Diag::KernelWithoutEnd)) return;
        Fields k;
        readFields(p.bytes(101), offset, k, *chunk_);
        KernelConfig c;
        for (int i = 0; i < 3; ++i) {
            c.grid[i] = clampU32(k.value(10 + i));
            c.block[i] = clampU16(k.value(13 + i));
        }
        c.static_shared_bytes = clampU32(k.value(16));
        c.dynamic_shared_bytes = clampU32(k.value(17));
        c.local_bytes_per_thread = clampU32(k.value(18));
        c.registers_per_thread = clampU16(k.value(21));
        c.shared_executed_bytes = clampU32(k.value(22));  // absent (0) where not recorded, as in the export
        c.launch_type = static_cast<uint8_t>(std::min<uint64_t>(k.value(24), 255));
        c.short_name_id = k.has(2) ? name(k.i64(2)) : 0;
        if (k.has(3)) c.mangled_name_id = name(k.i64(3));  // not in the 2020 reports
        if (k.has(19)) c.local_memory_total = k.value(19);
        if (k.has(23)) c.cache_config = static_cast<uint8_t>(std::min<uint64_t>(k.value(23), 254));
        if (k.has(28)) c.shared_memory_limit_config = static_cast<uint8_t>(std::min<uint64_t>(k.value(28), 254));
        const uint32_t shown = k.has(1) ? name(k.i64(1)) : c.short_name_id;
        chunk_->kernels.push_back({chunk_->kernelConfigRow(c), correlation, k.has(20) ? k.i64(20) : kNoGridId});
        if (k.has(27))  // graphNodeId, for a kernel traced as a node of a graph
            chunk_->kernelGraphNodes.push_back({static_cast<uint32_t>(chunk_->kernels.size() - 1), k.value(27)});
        nsys::pushInterval(*chunk_, lane, p.i64(1), p.i64(2), shown, EventKind::Kernel,
                           static_cast<uint32_t>(chunk_->kernels.size() - 1));
    }

    static MemKind memKind(const Fields& f, uint32_t n) {
        if (!f.has(n)) return MemKind::Unknown;
        return static_cast<MemKind>(f.value(n) <= 7 ? f.value(n) : 7);
    }

    void memcpy(const Fields& p, const LaneKey& lane, uint32_t correlation, uint64_t offset) {
        if (!validSpan(*chunk_, p, 1, 2, Diag::MemcpyWithoutEnd)) return;
        Fields m;
        readFields(p.bytes(102), offset, m, *chunk_);
        MemcpyInfo info;
        info.bytes = m.value(1);
        if (m.value(2) > static_cast<uint64_t>(CopyKind::UvmDtoD))
            countDiagnostic(chunk_->diagnostics, Diag::MemcpyUnknownCopyKind);
        info.copy_kind = static_cast<CopyKind>(m.value(2) <= 13 ? m.value(2) : 0);
        info.src_kind = memKind(m, 4);
        info.dst_kind = memKind(m, 5);
        info.correlation_id = correlation;
        info.copy_count = static_cast<uint32_t>(std::min<uint64_t>(m.value(16), UINT32_MAX));  // absent: 0
        chunk_->memcpys.push_back(info);
        if (m.has(6) || m.has(8))  // srcDeviceId, dstDeviceId: a peer copy, with 7 and 9 its contexts
            chunk_->peerCopies.push_back({static_cast<uint32_t>(chunk_->memcpys.size() - 1), clampU32(m.value(6)),
                                          clampU32(m.value(7)), clampU32(m.value(8)), clampU32(m.value(9))});
        if (m.has(10) || m.has(12))  // migrationCause, virtualAddress: a unified-memory migration
            chunk_->migrations.push_back({static_cast<uint32_t>(chunk_->memcpys.size() - 1),
                                          static_cast<uint8_t>(std::min<uint64_t>(m.value(10), 255)), m.value(12)});
        const uint32_t shown = chunk_->localString(std::string("[CUDA memcpy ") + copyKindLabel(info.copy_kind) + "]");
        nsys::pushInterval(*chunk_, lane, p.i64(1), p.i64(2), shown, EventKind::Memcpy,
                           static_cast<uint32_t>(chunk_->memcpys.size() - 1));
    }

    void memset(const Fields& p, const LaneKey& lane, uint32_t correlation, uint64_t offset) {
        if (!validSpan(*chunk_, p, 1, 2, Diag::MemsetWithoutEnd)) return;
        Fields m;
        readFields(p.bytes(103), offset, m, *chunk_);
        MemsetInfo info;
        info.bytes = m.value(1);
        info.value = static_cast<uint32_t>(m.value(2));
        info.mem_kind = memKind(m, 4);
        info.correlation_id = correlation;
        chunk_->memsets.push_back(info);
        nsys::pushInterval(*chunk_, lane, p.i64(1), p.i64(2), chunk_->localString("[CUDA memset]"), EventKind::Memset,
                           static_cast<uint32_t>(chunk_->memsets.size() - 1));
    }

    void sync(const Fields& p, LaneKey lane, uint32_t correlation, uint64_t offset) {
        static const char* const labels[] = {"Unknown sync", "Event sync", "Stream wait sync", "Stream sync",
                                             "Context sync"};
        if (!validSpan(*chunk_, p, 1, 2, Diag::SyncWithoutEnd)) return;
        Fields s;
        readFields(p.bytes(105), offset, s, *chunk_);
        const uint64_t type = s.value(quirks_.sync_type_field);
        SyncInfo info;
        info.sync_type = static_cast<uint8_t>(type <= 4 ? type : 0);
        info.deprecated_type = quirks_.sync_type_field != 4;
        info.correlation_id = correlation;
        if (s.has(3)) info.event_sync_id = clampU32(s.value(3));  // 2025.x; absent before
        if (s.has(1)) info.event_id = clampU32(s.value(1));
        chunk_->syncs.push_back(info);
        lane.kind = LaneKind::CudaSync;
        nsys::pushInterval(*chunk_, lane, p.i64(1), p.i64(2), chunk_->localString(labels[info.sync_type]),
                           EventKind::Sync, static_cast<uint32_t>(chunk_->syncs.size() - 1));
    }

    // CUPTI_ACTIVITY_KIND_GRAPH_TRACE: sub-message 107 { 1 graphId, 2 graphExecId }.
    void graphExecution(const Fields& p, const LaneKey& lane, uint32_t correlation, uint64_t offset) {
        if (!validSpan(*chunk_, p, 1, 2, Diag::GraphExecutionWithoutEnd)) return;
        Fields g;
        readFields(p.bytes(107), offset, g, *chunk_);
        const GraphExecutionInfo info{correlation, clampU32(g.value(1)), clampU32(g.value(2))};
        chunk_->graphExecutions.push_back(info);
        nsys::pushInterval(*chunk_, lane, p.i64(1), p.i64(2), chunk_->localString(nsys::graphExecutionName(info)),
                           EventKind::GraphExecution, static_cast<uint32_t>(chunk_->graphExecutions.size() - 1));
    }

    // CUPTI_ACTIVITY_KIND_CUDA_EVENT: sub-message 106 { 1 eventId, 2 eventSyncId (2023+) }.
    void eventRecord(const Fields& p, const LaneKey& lane, uint32_t correlation, uint64_t offset) {
        Fields e;
        readFields(p.bytes(106), offset, e, *chunk_);
        chunk_->cudaEvents.push_back(
            {lane, {correlation, clampU32(e.value(1)), e.has(2) ? clampU32(e.value(2)) : kNoEventSync}});
    }

    // CUDA_UM_CPU_PAGE_FAULT_EVENTS: 1 start, 2 globalPid, 3 address, 4 { 1 CpuInstruction string
    // id, 2 module string id, 6 unresolvedFaultPc, 8 originalFaultPc, 10 sourceLine, 11 sourceFile
    // string id } (sub-message 4 is a backtrace frame's layout).
    void cpuPageFault(std::string_view payload, uint64_t offset) {
        chunk_ = &chunks_.cpu_faults;
        Fields p;
        readFields(payload, offset, p, *chunk_);
        if (!nsys::validTime(*chunk_, p.i64(1))) return;
        Fields at;
        readFields(p.bytes(4), offset, at, *chunk_);
        CpuPageFaultInfo f;
        f.address = p.value(3);
        f.fault_pc = at.value(8);
        f.instruction_id = at.has(1) ? name(at.i64(1)) : 0;
        f.source_file_id = at.has(11) ? name(at.i64(11)) : 0;
        f.source_line = clampU32(at.value(10));
        f.module_id = at.has(2) ? name(at.i64(2)) : 0;
        f.pc_unresolved = at.value(6) != 0;
        chunk_->cpuPageFaults.push_back(f);
        StagingInstants& in = chunk_->lane(LaneKey{LaneKind::UmCpuPageFaults, p.i64(2)}).instants;
        const uint32_t label = chunk_->localString("CPU page fault");
        in.append(p.i64(1), label, static_cast<uint32_t>(chunk_->cpuPageFaults.size() - 1));
    }

    // CUDA_UM_GPU_PAGE_FAULT_EVENTS: 1 start, 2 end, 3 deviceId, 4 globalPid, 5 address,
    // 6 numberOfPageFaults, 7 faultAccessType.
    void gpuPageFault(std::string_view payload, uint64_t offset) {
        chunk_ = &chunks_.gpu_faults;
        Fields p;
        readFields(payload, offset, p, *chunk_);
        if (!validSpan(*chunk_, p, 1, 2, Diag::GpuPageFaultWithoutEnd)) return;
        GpuPageFaultInfo f;
        f.address = p.value(5);
        f.faults = p.has(6) ? clampU32(p.value(6)) : 1;
        f.access_type = static_cast<uint8_t>(std::min<uint64_t>(p.value(7), 255));
        chunk_->gpuPageFaults.push_back(f);
        nsys::pushInterval(*chunk_, LaneKey{LaneKind::UnifiedMemory, p.i64(4), p.i64(3)}, p.i64(1), p.i64(2),
                           chunk_->localString(nsys::gpuPageFaultName(f.access_type)), EventKind::GpuPageFault,
                           static_cast<uint32_t>(chunk_->gpuPageFaults.size() - 1));
    }

    // DIAGNOSTIC_EVENT: 1 { 1 timestamp, 2 timestampType }, 2 source, 3 severity, 4 text, 5 globalPid.
    void nsysMessage(std::string_view payload, uint64_t offset) {
        chunk_ = &chunks_.messages;
        Fields p;
        readFields(payload, offset, p, *chunk_);
        Fields time;
        readFields(p.bytes(1), offset, time, *chunk_);
        nsys::PendingNsysMessage m;
        m.global_pid = p.has(5) ? p.i64(5) : NsysMessage::kNoGlobalPid;
        m.message.time_ns = time.i64(1);
        m.message.time_source = static_cast<uint8_t>(std::min<uint64_t>(time.value(2), 255));
        m.message.source = static_cast<uint8_t>(std::min<uint64_t>(p.value(2), 255));
        m.message.severity = static_cast<uint8_t>(std::min<uint64_t>(p.value(3), 255));
        m.message.text = std::string(p.bytes(4));
        chunk_->nsysMessages.push_back(std::move(m));
    }

    // CUDA_GRAPH_EVENTS and CUDA_GRAPH_NODE_EVENTS: CPU-trace fields 1 start, 2 end, 7 name id,
    // 13 globalTid, and the ids in sub-message `number` of the payload (33, 37 or 38).
    void graphApiEvent(std::string_view payload, uint64_t offset, const Fields& p, uint64_t eventClass) {
        const uint32_t number = eventClass == kGraphNodeEvent ? 33 : eventClass == kGraphExecEvent ? 37 : 38;
        std::string_view ids;
        ProtoReader reader(payload, offset);
        for (ProtoField f; reader.next(f);)
            if (f.is(number, 2)) ids = f.bytes;
        Fields g;
        readFields(ids, offset, g, *chunk_);
        if (!nsys::validTime(*chunk_, p.i64(1))) return;
        GraphApiEvent e;
        e.start_ns = p.i64(1);
        e.end_ns = p.has(2) ? std::max(e.start_ns, p.i64(2)) : e.start_ns;
        e.name_id = name(p.i64(7));
        e.node = eventClass == kGraphNodeEvent;
        auto id = [&](uint32_t n) { return g.has(n) ? g.value(n) : kNoGraphId; };
        e.graph_id = id(1);
        if (e.node) e.original_graph_id = id(2);
        if (eventClass == kGraphExecEvent) e.graph_exec_id = id(2);
        chunk_->graphApiEvents.push_back({p.i64(13), e});
    }

    void cpuTrace(std::string_view payload, uint64_t offset) {
        Fields p;
        readFields(payload, offset, p, *chunk_);
        const int64_t tid = p.i64(13);
        const uint64_t eventClass = p.value(6);
        chunk_ = eventClass == kRuntime || eventClass == kDriver || eventClass == kRuntimeWithBacktrace
                     ? &chunks_.cuda_api
                 : eventClass == kOpenMp ? &chunks_.openmp
                 : eventClass == kGraphNodeEvent || eventClass == kGraphExecEvent || eventClass == kGraphEvent
                     ? &chunks_.graph_events
                     : &chunks_.osrt;
        switch (eventClass) {
            case kGraphNodeEvent:
            case kGraphExecEvent:
            case kGraphEvent:
                return graphApiEvent(payload, offset, p, eventClass);
            case kRuntime:
            case kDriver:
            case kRuntimeWithBacktrace:
                if (!validSpan(*chunk_, p, 1, 2, Diag::CudaApiWithoutEnd)) return;
                nsys::pushInterval(*chunk_, {LaneKind::CudaApi, tid}, p.i64(1), p.i64(2), name(p.i64(7)),
                                   EventKind::CudaApiCall, static_cast<uint32_t>(p.value(3)));
                if (p.value(8) != 0)  // returnValue
                    chunk_->callResults.push_back(
                        {tid, p.i64(1), static_cast<uint32_t>(p.value(3)), static_cast<int32_t>(p.value(8))});
                if (eventClass == kRuntimeWithBacktrace) backtrace(payload, offset, LaneKind::CudaApi, tid, p.i64(1));
                return;
            case kOsRuntime:
                if (!validSpan(*chunk_, p, 1, 2, Diag::OsrtWithoutEnd)) return;
                nsys::pushInterval(*chunk_, {LaneKind::OsRuntime, tid}, p.i64(1), p.i64(2), name(p.i64(7)),
                                   EventKind::OsRuntimeCall, kNoPayload);
                if (p.value(8) != 0)  // returnValue
                    chunk_->callResults.push_back({tid, p.i64(1), kNoPayload, static_cast<int32_t>(p.value(8))});
                if (p.has(15)) backtrace(payload, offset, LaneKind::OsRuntime, tid, p.i64(1));
                return;
            case kOpenMp:
                if (!validSpan(*chunk_, p, 1, 2, Diag::OpenMpWithoutEnd)) return;
                nsys::pushInterval(*chunk_, {LaneKind::OpenMp, tid}, p.i64(1), p.i64(2), name(p.i64(7)),
                                   EventKind::OpenMpEvent, kNoPayload);
                return;
            case kOsRuntimeBegin:
            case kOsRuntimeEnd: {  // OS runtime tracing started / stopped: instants
                if (!nsys::validTime(*chunk_, p.i64(1))) return;
                nsys::pushInstant(*chunk_, {LaneKind::OsRuntime, tid}, p.i64(1), name(p.i64(7)),
                                  static_cast<uint32_t>(eventClass));  // model/Lane.h OsRuntime
                return;
            }
            case kOverhead: {
                if (!p.has(1) || !p.has(2)) {
                    countDiagnostic(chunk_->diagnostics, Diag::ProfilerOverheadWithoutEnd);
                    return;
                }
                if (p.i64(2) < p.i64(1)) {
                    countDiagnostic(chunk_->diagnostics, Diag::NegativeDuration);
                    return;
                }
                OverheadRange o;
                o.start_ns = p.i64(1);
                o.end_ns = p.i64(2);
                o.process = p.has(13) ? static_cast<int32_t>((p.i64(13) >> 24) & 0xFFFFFF) : -1;  // a pid for now
                o.name_id = name(p.i64(7));
                o.return_value = static_cast<int32_t>(p.value(8));
                extras_.overhead.push_back(o);
                extras_.overhead_tids.push_back(p.has(13) ? p.i64(13) : 0);
                return;
            }
            default:
                return;  // markers the export leaves out (profiling started, ...)
        }
    }

    void nvtx(uint64_t type, std::string_view payload, uint64_t offset) {
        chunk_ = &chunks_.nvtx;
        Fields p;
        readFields(payload, offset, p, *chunk_);
        auto text = [&] {
            if (p.has(7)) return chunk_->localString(p.bytes(7));
            if (p.has(12)) return name(p.i64(12));
            return 0u;
        };
        // Every event not held by a lane keeps its start, for the ranges' ids.
        const int64_t start = p.i64(2);
        auto other = [&] {
            chunk_->noteNvtx(start, p.i64(9), NvtxHolder::Other);
            chunk_->nvtxOtherStarts.push_back(start);
        };
        // Field 12: a registered string's id (nsys's textId), 7: the text itself.
        const bool registered = !p.has(7) && p.has(12);
        if (type == kNvtxDomainCreate || type == kNvtxCategory || type == kNvtxThreadName) {
            chunk_->domains.push_back({p.i64(13), text(), start, p.has(9) ? p.i64(9) : 0,
                                       static_cast<uint16_t>(type == kNvtxDomainCreate ? 0 : type),
                                       static_cast<uint32_t>(p.value(5)), registered});
            return other();
        }
        NvtxInfo info;
        info.has_color = p.has(6);
        info.color = static_cast<uint32_t>(p.value(6));
        info.domain_name_id = static_cast<uint32_t>(p.value(13));
        info.category = static_cast<uint32_t>(p.value(5));
        info.start_end = type == kNvtxStartEnd;
        info.registered_name = registered;
        const LaneKey key{info.start_end ? LaneKind::NvtxStartEnd : LaneKind::Nvtx, p.i64(9)};
        if (!nsys::validTime(*chunk_, start)) return other();
        // Field 8: the payloads, the extended ones as { repeated 9 { 1 schemaId, 2 bytes } }. An
        // event carrying any extended payload has an NvtxInfo row of its own, by which
        // finishReport finds them; one with only a core payload ({ 1 value }, nsys's
        // uint64Value ..., not kept yet) shares its row as any other.
        auto nvtxRow = [&] {
            if (!p.has(8)) return chunk_->nvtxRow(info);
            const std::string_view field = p.bytes(8);
            const uint64_t fieldOffset = offset + uint64_t(field.data() - payload.data());
            auto extended = [&] {
                ProtoReader payloads(field, fieldOffset);
                for (ProtoField f; payloads.next(f);)
                    if (f.is(9, 2)) return true;
                return false;
            };
            if (!extended()) return chunk_->nvtxRow(info);
            const uint32_t own = chunk_->ownNvtxRow(info);
            ProtoReader payloads(field, fieldOffset);
            for (ProtoField f; payloads.next(f);) {
                if (!f.is(9, 2)) continue;
                uint64_t schema = 0;
                std::string_view bytes;
                ProtoReader one(f.bytes, payloads.offsetOf(f.bytes));
                for (ProtoField g; one.next(g);) {
                    if (g.is(1, 0)) schema = g.value;
                    if (g.is(2, 2)) bytes = g.bytes;
                }
                chunk_->addPayload(own, schema, {reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
            }
            return own;
        };
        if (type == kNvtxMark) {
            chunk_->noteNvtx(start, p.i64(9), NvtxHolder::Mark);
            StagingInstants& in = chunk_->lane(key).instants;
            const uint32_t label = text();
            in.append(start, label, nvtxRow());
            return;
        }
        if (!p.has(10)) {
            countDiagnostic(chunk_->diagnostics, Diag::NvtxRangeWithoutEnd);
            return other();
        }
        const int64_t end = p.i64(10);
        if (!nsys::validTime(*chunk_, end)) return other();
        if (end < start) {
            countDiagnostic(chunk_->diagnostics, Diag::NegativeDuration);
            return other();
        }
        chunk_->noteNvtx(start, p.i64(9), NvtxHolder::Range);
        nsys::pushInterval(*chunk_, key, start, end, text(), EventKind::NvtxRange, nvtxRow());
    }

    // PROCESSES.name is field 6, or for the process nsys launched (which has none) field 5.
    void process(std::string_view payload, uint64_t offset) {
        Fields p;
        readFields(payload, offset, p, *chunk_);
        if (!p.has(6) && !p.has(5)) return;
        extras_.processes.emplace_back(p.i64(2), std::string(p.has(6) ? p.bytes(6) : p.bytes(5)));
    }

    // CUDA_GPU_MEMORY_USAGE_EVENTS: start 1, deviceId 3 (field 2 repeats the start), contextId 4,
    // globalPid 5, address 6, pc 7, bytes 8, memKind 9, operation 10, name 11 (the text itself),
    // correlationId 12.
    void memoryUsage(std::string_view payload, uint64_t offset) {
        Fields p;
        readFields(payload, offset, p, *chunk_);
        const uint64_t op = p.value(10);
        if (op != 0 && op != 1) {
            countDiagnostic(chunk_->diagnostics, Diag::MemoryUsageUnknownOperation);
            return;
        }
        if (!nsys::validTime(*chunk_, p.i64(1))) return;
        const double bytes = static_cast<double>(static_cast<int64_t>(p.value(8)));
        CudaMemoryEvent e;
        e.time_ns = p.i64(1);
        e.address = p.value(6);
        e.pc = p.value(7);
        e.bytes = p.value(8);
        e.context_id = static_cast<uint32_t>(std::min<uint64_t>(p.value(4), UINT32_MAX));
        e.correlation_id = static_cast<uint32_t>(std::min<uint64_t>(p.value(12), UINT32_MAX));
        e.mem_kind = memKind(p, 9);
        e.freed = op == 1;
        extras_.memory.push_back(
            {p.i64(1), p.i64(5), p.i64(3), op == 0 ? bytes : -bytes, e, p.has(11) ? std::string(p.bytes(11)) : ""});
    }

    uint32_t name(int64_t id) { return nsys::nameOf(builder_, *chunk_, id); }

    // A frame's field n as FrameDetail keeps it: kAbsentFrameField when the file leaves it out.
    static uint8_t frameField(const Fields& frame, uint32_t n) {
        return frame.has(n) ? static_cast<uint8_t>(std::min<uint64_t>(frame.value(n), kAbsentFrameField - 1))
                            : kAbsentFrameField;
    }

    // The repeated frame field `number` of `message`, innermost first: { 1 function string id,
    // 2 module string id, 4 kernelMode, 5 thumbCode, 6 unresolved, 8 originalIP, 9 unwindMethod }
    // each (docs/nsys-rep-format.md, CPU side).
    void readFrames(std::string_view message, uint64_t offset, uint32_t number) {
        frames_.clear();
        details_.clear();
        ProtoReader reader(message, offset);
        for (ProtoField f; reader.next(f);) {
            if (!f.is(number, 2)) continue;
            Fields frame;
            readFields(f.bytes, reader.offsetOf(f.bytes), frame, *chunk_);
            frames_.push_back({name(frame.i64(1)), name(frame.i64(2))});
            details_.push_back({frame.i64(8), frameField(frame, 4), frameField(frame, 5), frameField(frame, 6),
                                frameField(frame, 9), frame.has(8)});
        }
    }
    uint32_t localStack() {
        const uint32_t stack = chunk_->stacks.intern(frames_);
        return stack == kNoStack ? kNoStack : stack | nsys::kLocalStack;
    }

    // The backtrace (field 15) of the CPU call just pushed.
    void backtrace(std::string_view payload, uint64_t offset, LaneKind lane, int64_t tid, int64_t start) {
        readFrames(payload, offset, 15);
        const auto firstDetail = static_cast<uint32_t>(chunk_->backtraceFrameDetails.size());
        chunk_->backtraceFrameDetails.insert(chunk_->backtraceFrameDetails.end(), details_.begin(), details_.end());
        chunk_->backtraces.push_back({tid, lane, start, localStack(), firstDetail});
    }

    // COMPOSITE_EVENTS + SAMPLING_CALLCHAINS: 1 start, 3 cpu, 4 frames (innermost first), 6 thread
    // state, 11 globalTid, 12 cpuCycles.
    void cpuSample(std::string_view payload, uint64_t offset) {
        chunk_ = &chunks_.samples;
        Fields p;
        readFields(payload, offset, p, *chunk_);
        if (!nsys::validTime(*chunk_, p.i64(1))) return;
        readFrames(payload, offset, 4);
        chunk_->sampleFrameDetails.insert(chunk_->sampleFrameDetails.end(), details_.begin(), details_.end());
        const uint32_t shown = frames_.empty() ? chunk_->localString("[no call stack]") : frames_.front().function;
        nsys::pushInstant(*chunk_, {LaneKind::CpuSamples, p.i64(11)}, p.i64(1), shown, localStack());
        const auto state = static_cast<uint32_t>(std::min<uint64_t>(p.value(6), UINT32_MAX));
        const int64_t cycles = p.i64(12);
        if (state != kUsualSampleState || cycles != kUsualSampleCycles)
            chunk_->unusualSamples.push_back({p.i64(11), p.i64(1), state, cycles});
    }

    // SCHED_EVENTS: 1 start, 3 cpu, 4 isSchedIn, 5 threadState, 6 globalTid.
    void schedule(std::string_view payload, uint64_t offset) {
        chunk_ = &chunks_.samples;
        Fields p;
        readFields(payload, offset, p, *chunk_);
        if (!nsys::validTime(*chunk_, p.i64(1))) return;
        chunk_->sched.push_back(
            {p.i64(1), p.i64(6), static_cast<int32_t>(p.value(3)), p.value(4) != 0, static_cast<int32_t>(p.value(5))});
    }

    const nsys::ReportBuilder& builder_;
    const VersionQuirks& quirks_;
    TableChunks& chunks_;
    EventChunk* chunk_ = &chunks_.nvtx;  // the table the event at hand belongs to
    BlockExtras& extras_;
    std::vector<FrameName> frames_;     // the frames of the event at hand
    std::vector<FrameDetail> details_;  // and what else it recorded of them, frame by frame
};

}  // namespace

void decodeBlock(std::string_view block, uint64_t offset, const nsys::ReportBuilder& builder,
                 const VersionQuirks& quirks, TableChunks& chunks, BlockExtras& extras) {
    size_t pos = 0;
    uint64_t length = 0;
    if (!readVarint(block, pos, length) || length > block.size() - pos)
        throw MalformedProto("a block whose message is longer than the block, inflated from byte " +
                             std::to_string(offset));
    ProtoReader reader(block.substr(pos, static_cast<size_t>(length)), offset);
    Decoder decoder(builder, quirks, chunks, extras);
    for (ProtoField f; reader.next(f);) {
        if (f.is(1, 2)) {
            decoder.event(f.bytes, offset);
            ++extras.events;
        } else if (f.is(2, 2)) {
            ProtoReader generic(f.bytes, offset);
            GenericEvent e;
            for (ProtoField g; generic.next(g);) {
                if (g.is(1, 0))
                    e.type_id = g.value;
                else if (g.is(2, 0))
                    e.time_ns = g.i64();
                else if (g.is(3, 2))
                    e.record = std::string(g.bytes);
            }
            extras.generic.push_back(std::move(e));
        }
    }
}

}  // namespace lanescope::nsysrep
