// The model from the events of a PyTorch profiler (Kineto) trace.
#include "importers/kineto/KinetoBuilder.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string_view>

#include "importers/kineto/TextIs.h"
#include "model/DiagnosticKinds.h"

namespace lanescope::kineto {
namespace {

Cat kernelCategory(std::string_view name) {
    if (name.starts_with("Memcpy")) return Cat::Memcpy;  // old traces filed copies under Kernel
    if (name.starts_with("Memset")) return Cat::Memset;
    return Cat::Kernel;
}

// By the category's length first: one or two comparisons of a known size.
Cat categoryOf(std::string_view cat, std::string_view name) {
    switch (cat.size()) {
        case 6:
            if (is(cat, "cpu_op")) return Cat::CpuOp;
            if (is(cat, "kernel") || is(cat, "Kernel")) return kernelCategory(name);
            if (is(cat, "Driver")) return Cat::CudaApi;
            if (is(cat, "Memcpy")) return Cat::Memcpy;
            if (is(cat, "Memset")) return Cat::Memset;
            return Cat::Unknown;
        case 7:
            return is(cat, "Runtime") ? Cat::CudaApi : Cat::Unknown;
        case 8:
            if (is(cat, "Operator")) return Cat::CpuOp;
            if (is(cat, "overhead")) return Cat::Overhead;
            return Cat::Unknown;
        case 9:
            return is(cat, "cuda_sync") ? Cat::Sync : Cat::Unknown;
        case 10:
            if (is(cat, "gpu_memcpy")) return Cat::Memcpy;
            if (is(cat, "gpu_memset")) return Cat::Memset;
            return Cat::Unknown;
        case 11:
            return is(cat, "cuda_driver") ? Cat::CudaApi : Cat::Unknown;
        case 12:
            return is(cat, "cuda_runtime") ? Cat::CudaApi : Cat::Unknown;
        case 15:
            if (is(cat, "user_annotation")) return Cat::Annotation;
            if (is(cat, "python_function")) return Cat::Python;
            return Cat::Unknown;
        case 17:
            return is(cat, "cpu_instant_event") ? Cat::CpuOp : Cat::Unknown;
        case 19:
            return is(cat, "gpu_user_annotation") ? Cat::GpuAnnotation : Cat::Unknown;
        default:
            return Cat::Unknown;
    }
}

const char* cpuLaneName(Cat c) {
    switch (c) {
        case Cat::CpuOp:
            return kPytorchOperatorLaneName.data();
        case Cat::Python:
            return kPytorchPythonLaneName.data();
        default:
            return "Annotations";
    }
}

MemKind memKindOf(std::string_view s) {
    if (s == "Pageable") return MemKind::Pageable;
    if (s == "Pinned") return MemKind::Pinned;
    if (s == "Device") return MemKind::Device;
    if (s == "Array") return MemKind::Array;
    if (s == "Managed") return MemKind::Managed;
    return MemKind::Unknown;
}

// "Memcpy HtoD (Pageable -> Device)" -> HtoD, Pageable, Device.
void parseMemcpyName(std::string_view name, MemcpyInfo& m) {
    static const std::pair<std::string_view, CopyKind> kinds[] = {
        {"HtoD", CopyKind::HtoD}, {"DtoH", CopyKind::DtoH}, {"HtoA", CopyKind::HtoA}, {"AtoH", CopyKind::AtoH},
        {"AtoA", CopyKind::AtoA}, {"AtoD", CopyKind::AtoD}, {"DtoA", CopyKind::DtoA}, {"DtoD", CopyKind::DtoD},
        {"HtoH", CopyKind::HtoH}, {"PtoP", CopyKind::PtoP}};
    for (const auto& [label, kind] : kinds)
        if (name.find(label) != std::string_view::npos) {
            m.copy_kind = kind;
            break;
        }
    const size_t open = name.find('('), arrow = name.find(" -> "), close = name.rfind(')');
    if (open != std::string_view::npos && arrow != std::string_view::npos && close != std::string_view::npos &&
        open < arrow && arrow < close) {
        m.src_kind = memKindOf(name.substr(open + 1, arrow - open - 1));
        m.dst_kind = memKindOf(name.substr(arrow + 4, close - arrow - 4));
    }
}

}  // namespace

uint32_t Builder::intern(std::string_view text) {
    // Slot: the length and the first and last 8 bytes (at most), mixed.
    const size_t n = std::min<size_t>(text.size(), 8);
    uint64_t head = 0, tail = 0;
    if (n) {
        std::memcpy(&head, text.data(), n);
        std::memcpy(&tail, text.data() + text.size() - n, n);
    }
    const uint64_t mix = (head * 0x9E3779B97F4A7C15ull) ^ (tail * 0xC2B2AE3D27D4EB4Full) ^ text.size();
    InternSlot& slot = internCache_[(mix * 0xFF51AFD7ED558CCDull) >> (64 - kInternCacheBits)];
    if (slot.text == text) return slot.id;  // an empty text: id 0, as an empty slot holds
    const uint32_t id = r_.strings.intern(text);
    slot = {r_.strings.str(id), id};
    return id;
}

Pending& Builder::lane(const Key& k) {
    const uint64_t mix = (static_cast<uint64_t>(k.kind) << 8 | k.sub) ^
                         (static_cast<uint64_t>(k.a) * 0x9E3779B97F4A7C15ull) ^
                         (static_cast<uint64_t>(k.b) * 0xC2B2AE3D27D4EB4Full);
    LaneCacheSlot& slot = laneCache_[(mix * 0xFF51AFD7ED558CCDull) >> (64 - kLaneCacheBits)];
    if (slot.pending && slot.key.kind == k.kind && slot.key.sub == k.sub && slot.key.a == k.a && slot.key.b == k.b)
        return *slot.pending;
    Pending& p = lanes_[k];  // map nodes stay put
    slot = {k, &p};
    return p;
}

void Builder::complete(const Event& e, Cat c, int64_t start, int64_t end) {
    const int64_t pid = idOf(e.pidText, e.pid), tid = idOf(e.tidText, e.tid);
    switch (c) {
        case Cat::CpuOp:
        case Cat::Annotation:
        case Cat::Python: {
            // An operator's input shapes (record_shapes=True) make its row its own.
            uint32_t row = c == Cat::CpuOp && !e.inputDims.empty() ? shapesRow(intern(e.inputDims)) : nvtxRow();
            if (c == Cat::CpuOp && e.comms.hasComms) {  // record_param_comms: a row of its own
                NvtxInfo info = r_.nvtx[row];
                info.collective_args = collectiveArgsRow(e.comms, CollectiveArgs::kNotOnKernel) + 1;
                row = static_cast<uint32_t>(r_.nvtx.size());
                r_.nvtx.push_back(info);
            }
            interval({LaneKind::Nvtx, static_cast<uint8_t>(c), pid, tid}, start, end, intern(e.name), row,
                     EventKind::NvtxRange);
            break;
        }
        case Cat::CudaApi:
            ++apiCallsOfPid_[pid];
            interval({LaneKind::CudaApi, 0, pid, tid}, start, end, intern(e.name), static_cast<uint32_t>(e.correlation),
                     EventKind::CudaApiCall);
            break;
        case Cat::Kernel: {
            KernelConfig k;
            for (int i = 0; i < 3; ++i) {
                k.grid[i] = e.grid[i];
                k.block[i] = static_cast<uint16_t>(std::min<uint32_t>(e.block[i], UINT16_MAX));
            }
            k.registers_per_thread = static_cast<uint16_t>(std::clamp<int64_t>(e.registers, 0, UINT16_MAX));
            // Kineto reports static + dynamic shared memory as one number.
            k.static_shared_bytes = static_cast<uint32_t>(std::clamp<int64_t>(e.shared, 0, UINT32_MAX));
            k.blocks_per_sm = e.blocksPerSm;
            k.warps_per_sm = e.warpsPerSm;
            k.est_achieved_occupancy_pct = e.occupancyPct;
            k.launch_type = 1;
            auto [it, inserted] = configs_.try_emplace(k, static_cast<uint32_t>(r_.kernel_configs.size()));
            if (inserted) r_.kernel_configs.push_back(k);
            const auto row = static_cast<uint32_t>(r_.kernels.size());
            r_.kernels.push_back({it->second, static_cast<uint32_t>(e.correlation)});
            if (e.comms.hasComms) collectiveArgsRow(e.comms, row);
            Key key{LaneKind::GpuStream, 0, e.device >= 0 ? e.device : e.pid, e.stream >= 0 ? e.stream : e.tid};
            lane(key).context = e.context;
            interval(key, start, end, intern(e.name), row, EventKind::Kernel);
            break;
        }
        case Cat::Memcpy: {
            MemcpyInfo m;
            m.bytes = static_cast<uint64_t>(std::max<int64_t>(e.bytes, 0));
            m.correlation_id = static_cast<uint32_t>(e.correlation);
            parseMemcpyName(e.name, m);
            const auto row = static_cast<uint32_t>(r_.memcpys.size());
            r_.memcpys.push_back(m);
            Key key{LaneKind::GpuStream, 0, e.device >= 0 ? e.device : e.pid, e.stream >= 0 ? e.stream : e.tid};
            lane(key).context = e.context;
            interval(key, start, end,
                     r_.strings.intern(std::string("[CUDA memcpy ") + copyKindLabel(m.copy_kind) + "]"), row,
                     EventKind::Memcpy);
            break;
        }
        case Cat::Memset: {
            MemsetInfo m;
            m.bytes = static_cast<uint64_t>(std::max<int64_t>(e.bytes, 0));
            m.correlation_id = static_cast<uint32_t>(e.correlation);
            const size_t open = e.name.find('('), close = e.name.rfind(')');
            if (open != std::string_view::npos && close != std::string_view::npos && open < close)
                m.mem_kind = memKindOf(e.name.substr(open + 1, close - open - 1));
            const auto row = static_cast<uint32_t>(r_.memsets.size());
            r_.memsets.push_back(m);
            Key key{LaneKind::GpuStream, 0, e.device >= 0 ? e.device : e.pid, e.stream >= 0 ? e.stream : e.tid};
            lane(key).context = e.context;
            interval(key, start, end, intern("[CUDA memset]"), row, EventKind::Memset);
            break;
        }
        case Cat::GpuAnnotation:
            interval({LaneKind::NvtxStartEnd, 0, e.device >= 0 ? e.device : e.pid, -1}, start, end, intern(e.name),
                     startEndRow(), EventKind::NvtxRange);
            break;
        case Cat::Sync: {
            // As nsys's synchronization rows: a Sync event on its stream's CudaSync lane. The event
            // record a "Stream Wait Event" waited for becomes a record on its stream, as nsys's
            // CUDA_EVENT rows are, linked to the wait by an eventSyncId of our own.
            SyncInfo s;
            s.correlation_id = static_cast<uint32_t>(e.correlation);
            s.sync_type = e.name == "Event Sync"          ? 1
                          : e.name == "Stream Wait Event" ? 2
                          : e.name == "Stream Sync"       ? 3
                          : e.name == "Context Sync"      ? 4
                                                          : 0;
            const int64_t device = e.device >= 0 ? e.device : e.pid;
            if (e.waitOnRecordCorrelation >= 0 && e.waitOnStream >= 0) {
                CudaEventInfo record;
                record.correlation_id = static_cast<uint32_t>(e.waitOnRecordCorrelation);
                record.event_id = e.waitOnEventId >= 0 ? static_cast<uint32_t>(e.waitOnEventId) : kNoEventId;
                record.event_sync_id = static_cast<uint32_t>(r_.cuda_events.size() + 1);
                s.event_sync_id = record.event_sync_id;
                s.event_id = record.event_id;
                r_.cuda_events.push_back(record);
                Pending& p = lane({LaneKind::GpuStream, 0, device, e.waitOnStream});
                p.instants.append(start, intern("CUDA event record"), static_cast<uint32_t>(r_.cuda_events.size() - 1));
            }
            const auto row = static_cast<uint32_t>(r_.syncs.size());
            r_.syncs.push_back(s);
            Key key{LaneKind::CudaSync, 0, device, e.stream >= 0 ? e.stream : e.tid};
            lane(key).context = e.context;
            interval(key, start, end, intern(e.name), row, EventKind::Sync);
            break;
        }
        case Cat::Overhead:
            r_.profiler_overhead.push_back({start, end, -1, intern(e.name)});
            break;
        case Cat::Unknown:
            countDiagnostic(r_.diagnostics, Diag::JsonUnknownCategory, {e.cat});
            break;
    }
}

void Builder::add(Event& e) {
    ++events;
    switch (e.ph) {
        case 'X': {
            if (!e.hasTs) {
                countDiagnostic(r_.diagnostics, Diag::JsonEventWithoutTs);
                return;
            }
            int64_t dur = e.hasDur ? e.dur : 0;
            if (dur < 0) {
                countDiagnostic(r_.diagnostics, Diag::JsonNegativeDuration);
                dur = 0;
            }
            complete(e, categoryOf(e.cat, e.name), e.ts, e.ts + dur);
            return;
        }
        case 'B': {
            if (!e.hasTs) {
                countDiagnostic(r_.diagnostics, Diag::JsonEventWithoutTs);
                return;
            }
            const int64_t pid = idOf(e.pidText, e.pid), tid = idOf(e.tidText, e.tid);
            stacks_[{pid, tid}].push_back({e.ts, intern(e.name), categoryOf(e.cat, e.name), std::string(e.cat)});
            return;
        }
        case 'E': {
            const int64_t pid = idOf(e.pidText, e.pid), tid = idOf(e.tidText, e.tid);
            auto it = stacks_.find({pid, tid});
            if (it == stacks_.end() || it->second.empty() || !e.hasTs) {
                countDiagnostic(r_.diagnostics, Diag::JsonUnmatchedEnd);
                return;
            }
            Open open = std::move(it->second.back());
            it->second.pop_back();
            Event b = e;
            b.name = r_.str(open.name);
            b.cat = open.catText;
            if (e.ts < open.ts) {
                countDiagnostic(r_.diagnostics, Diag::JsonNegativeDuration);
                b.ts = open.ts;
            }
            complete(b, open.cat, open.ts, std::max(open.ts, e.ts));
            return;
        }
        case 'i':
        case 'I':
        case 'R': {
            if (!e.hasTs) {
                countDiagnostic(r_.diagnostics, Diag::JsonEventWithoutTs);
                return;
            }
            const int64_t pid = idOf(e.pidText, e.pid), tid = idOf(e.tidText, e.tid);
            Pending& p = lane({LaneKind::Nvtx, static_cast<uint8_t>(Cat::Annotation), pid, tid});
            p.instants.append(e.ts, intern(e.name), nvtxRow());
            // An allocation or free stays a marker there, and is kept for the memory view too.
            if (e.memory.hasMemory && e.name == "[memory]") memory_.push_back({e.ts, pid, tid, e.memory});
            return;
        }
        case 'C': {
            if (!e.hasTs) {
                countDiagnostic(r_.diagnostics, Diag::JsonEventWithoutTs);
                return;
            }
            const int64_t pid = idOf(e.pidText, e.pid);
            for (const auto& [series, value] : e.counterValues) {
                auto [it, inserted] =
                    counters_.try_emplace({pid, std::string(e.name), std::string(series)}, r_.counters.size());
                if (inserted) {
                    Counter c;
                    c.name_id = r_.strings.intern(series == "value" || series == e.name
                                                      ? std::string(e.name)
                                                      : std::string(e.name) + " " + std::string(series));
                    counterPids_.push_back(pid);  // the process is made in finish, once named
                    r_.counters.push_back(std::move(c));
                }
                r_.counters[it->second].time_ns.push_back(e.ts);
                r_.counters[it->second].value.push_back(value);
            }
            return;
        }
        case 'M': {
            const int64_t pid = idOf(e.pidText, e.pid), tid = idOf(e.tidText, e.tid);
            if (e.name == "process_name" && !e.argName.empty())
                entities_.nameProcess(pid, r_.strings.intern(e.argName));
            else if (e.name == "thread_name" && !e.argName.empty())
                entities_.nameThread(pid, tid, r_.strings.intern(e.argName));
            return;
        }
        case 's':
        case 't':
        case 'f':
            if (e.cat == "fwdbwd") {
                if (e.ph == 's') countDiagnostic(r_.diagnostics, Diag::JsonFwdbwdFlowsNotShown);  // one per flow
            } else if (e.cat != "ac2g")
                countDiagnostic(r_.diagnostics, Diag::JsonFlowIgnored);  // ac2g: correlation is in args
            return;
        default:
            countDiagnostic(r_.diagnostics, Diag::JsonUnsupportedPhase, {std::string_view(&e.ph, e.ph ? 1 : 0)});
            return;
    }
}

void Builder::keepMemoryEvents(int64_t origin) {
    std::stable_sort(memory_.begin(), memory_.end(),
                     [](const PendingMemory& a, const PendingMemory& b) { return a.ts < b.ts; });
    r_.pytorch_memory.reserve(memory_.size());
    // Per device (type, id): the rows of its allocated and reserved counters.
    std::map<std::pair<uint8_t, int16_t>, std::pair<size_t, size_t>> countersOf;
    for (const PendingMemory& m : memory_) {
        PytorchMemoryEvent event;
        event.time_ns = m.ts - origin;
        event.address = m.args.address;
        event.bytes = m.args.bytes;
        event.total_allocated = m.args.totalAllocated;
        event.total_reserved = m.args.totalReserved;
        event.thread = thread(m.pid, m.tid);
        event.device_id = static_cast<int16_t>(std::clamp<int64_t>(m.args.deviceId, INT16_MIN, INT16_MAX));
        event.device_type = static_cast<uint8_t>(std::clamp<int64_t>(m.args.deviceType, 0, UINT8_MAX));
        r_.pytorch_memory.push_back(event);
        auto [it, inserted] = countersOf.try_emplace({event.device_type, event.device_id});
        if (inserted) {
            it->second = {r_.counters.size(), r_.counters.size() + 1};
            const std::string device = pytorchDeviceLabel(event.device_type, event.device_id);
            for (const char* what : {"Allocated memory (", "Reserved memory ("}) {
                Counter c;
                c.name_id = r_.strings.intern(what + device + ")");
                c.unit_id = r_.strings.intern("bytes");
                c.gpu = event.device_type == kPytorchDeviceCuda ? gpu(event.device_id) : -1;
                c.process = process(m.pid);
                r_.counters.push_back(std::move(c));
            }
        }
        for (const auto& [row, value] :
             {std::pair{it->second.first, event.total_allocated}, std::pair{it->second.second, event.total_reserved}}) {
            r_.counters[row].time_ns.push_back(event.time_ns);
            r_.counters[row].value.push_back(static_cast<double>(value));
        }
    }
    memory_.clear();
    memory_.shrink_to_fit();
}

void Builder::finish() {
    for (auto& [key, stack] : stacks_)
        if (!stack.empty()) countDiagnostic(r_.diagnostics, Diag::JsonUnmatchedBegin, stack.size());

    // Kineto puts GPU work under pid = device; the model files it under the process whose
    // CUDA calls launched it (correlation ids are per process): the process with most calls.
    int64_t mainPid = std::numeric_limits<int64_t>::min();
    uint64_t most = 0;
    for (const auto& [pid, calls] : apiCallsOfPid_)
        if (calls > most || (calls == most && pid < mainPid)) {
            most = calls;
            mainPid = pid;
        }

    // Time origin: the first time in the report.
    int64_t origin = std::numeric_limits<int64_t>::max();
    for (const auto& [key, p] : lanes_) {
        for (int64_t t : p.events.start_ns) origin = std::min(origin, t);
        for (int64_t t : p.instants.time_ns) origin = std::min(origin, t);
    }
    for (const Counter& c : r_.counters)
        for (int64_t t : c.time_ns) origin = std::min(origin, t);
    if (origin == std::numeric_limits<int64_t>::max()) origin = 0;
    if (r_.meta.start_utc_ns)
        r_.meta.start_utc_ns += origin;  // baseTimeNanoseconds + offset
    else if (origin > 946684800'000'000'000)
        r_.meta.start_utc_ns = origin;  // ts were since the epoch

    std::vector<Key> ncclKeys;
    for (auto& [key, p] : lanes_) {
        Lane l;
        l.kind = key.kind;
        if (key.kind == LaneKind::GpuStream || key.kind == LaneKind::CudaSync || key.kind == LaneKind::NvtxStartEnd) {
            l.process = process(most ? mainPid : key.a);
            l.gpu = gpu(key.a);
            if (key.kind == LaneKind::CudaSync) {
                l.stream_id = key.b;
                l.context_id = p.context;
                l.name_id = r_.strings.intern(EntityRegistry::defaultLaneName(LaneKind::CudaSync, key.b));
            } else if (key.kind == LaneKind::GpuStream) {
                l.stream_id = key.b;
                l.context_id = p.context;
                l.name_id = r_.strings.intern(EntityRegistry::defaultLaneName(LaneKind::GpuStream, key.b));
            } else {
                l.name_id = r_.strings.intern("GPU annotations");
            }
        } else {
            l.thread = thread(key.a, key.b);
            l.process = r_.threads[static_cast<size_t>(l.thread)].process;
            l.name_id =
                r_.strings.intern(key.kind == LaneKind::CudaApi ? "CUDA API" : cpuLaneName(static_cast<Cat>(key.sub)));
        }
        l.events = p.events.intoColumns();
        l.instants = p.instants.intoColumns();
        for (int64_t& t : l.events.start_ns) t -= origin;
        for (int64_t& t : l.instants.time_ns) t -= origin;
        r_.lanes.push_back(std::move(l));
    }
    lanes_.clear();
    for (LaneCacheSlot& slot : laneCache_) slot = {};
    for (size_t i = 0; i < r_.counters.size(); ++i) {
        r_.counters[i].process = process(counterPids_[i]);
        for (int64_t& t : r_.counters[i].time_ns) t -= origin;
    }
    keepMemoryEvents(origin);
    for (OverheadRange& o : r_.profiler_overhead) {
        o.start_ns -= origin;
        o.end_ns -= origin;
    }
    std::sort(r_.profiler_overhead.begin(), r_.profiler_overhead.end(),
              [](const OverheadRange& a, const OverheadRange& b) { return a.start_ns < b.start_ns; });
}

}  // namespace lanescope::kineto
