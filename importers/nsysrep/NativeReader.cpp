#include "importers/nsysrep/NativeReader.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <optional>
#include <thread>

#include "importers/MemoryEstimate.h"
#include "importers/WorkerErrors.h"
#include "importers/nsys/TableScan.h"
#include "importers/nsysrep/CaptureSettings.h"
#include "importers/nsysrep/EventDecoder.h"
#include "importers/nsysrep/GenericEvents.h"
#include "importers/nsysrep/PayloadSchemas.h"
#include "importers/nsysrep/ProtoReader.h"
#include "importers/nsysrep/RepFile.h"
#include "importers/nsysrep/SessionClock.h"
#include "importers/nsysrep/SystemEnvironment.h"
#include "model/DiagnosticKinds.h"
#include "model/MpiRank.h"
#include "model/SystemProperties.h"

namespace lanescope::nsysrep {
namespace {

ImportError corrupt(const std::filesystem::path& path, const std::string& why) {
    return {ImportError::Kind::Corrupt, path.string() + ": " + why};
}

// Thread names: { repeated 1 { 1 tid, 2 name string id, 3 priority, 4 globalTid } }.
void readThreadNames(const RepLayout& layout, nsys::ReportBuilder& builder) {
    ProtoReader names(layout.thread_names, 0);
    for (ProtoField entry; names.next(entry);) {
        if (entry.number != 1 || entry.wire != 2) continue;
        ProtoReader fields(entry.bytes, 0);
        int64_t globalTid = 0, name = -1, priority = 0;  // an absent priority is 0, as in the export
        for (ProtoField f; fields.next(f);) {
            if (f.number == 2 && f.wire == 0)
                name = f.i64();
            else if (f.number == 3 && f.wire == 0)
                priority = f.i64();
            else if (f.number == 4 && f.wire == 0)
                globalTid = f.i64();
        }
        if (name >= 0) builder.setThreadName(globalTid, name);
        builder.setThreadPriority(globalTid, static_cast<int32_t>(priority));
    }
}

// A GPU entry's fields (system information field 7) by the TARGET_INFO_GPU property each holds,
// learned by comparing the 16 corpus reports with GPUs (2020.5 to 2025.3) with their nsys 2025.3
// exports (every value equal). Fields 8, 18 to 20 and 45 on are not in the export; where two fields held the
// same value in every report (15 and 19, 20 and 22), the export's column order decides.
std::optional<GpuProperty> gpuPropertyOfField(uint32_t field) {
    using P = GpuProperty;
    switch (field) {
        case 1:
            return P::Id;
        case 2:
            return P::Name;
        case 3:
            return P::BusLocation;
        case 4:
            return P::IsDiscrete;
        case 5:
            return P::Uuid;
        case 6:
            return P::Luid;
        case 7:
            return P::ChipName;
        case 9:
            return P::PwGpuId;
        case 10:
            return P::L2CacheSize;
        case 11:
            return P::TotalMemory;
        case 12:
            return P::MemoryBandwidth;
        case 13:
            return P::ClockRate;
        case 14:
            return P::SmCount;
        case 15:
            return P::CuDevice;
        case 16:
            return P::CtxswDevPath;
        case 17:
            return P::CtrlDevPath;
        default:
            break;
    }
    // 21 revision, 22 nodeMask, ... 44 smMinor: the export's columns in order.
    if (field >= 21 && field <= 44) return P(size_t(P::Revision) + (field - 21));
    return std::nullopt;
}

// A CUDA context of the system information: { 1 nullStreamId, 2 hwId, 3 vmId, 4 pid, 5 deviceId,
// 6 contextId, 7 parentContextId, 8 isGreenContext }, absent fields 0 but 7 and 8, which reports
// before 2025 do not record.
CudaContext cudaContext(ProtoReader& entry) {
    CudaContext c;
    int64_t* fields[] = {&c.null_stream_id,    &c.hw_id,           &c.vm_id, &c.pid, &c.device_id, &c.context_id,
                         &c.parent_context_id, &c.is_green_context};
    for (ProtoField e; entry.next(e);)
        if (e.wire == 0 && e.number >= 1 && e.number <= 8) *fields[e.number - 1] = e.i64();
    return c;
}

// A CUDA stream of the system information: { 1 streamId, 2 hwId, 3 vmId, 4 pid, 5 contextId,
// 6 priority, 7 flag }, absent fields 0.
CudaStream cudaStream(ProtoReader& entry) {
    CudaStream s;
    int64_t* fields[] = {&s.stream_id, &s.hw_id, &s.vm_id, &s.pid, &s.context_id, &s.priority, &s.flag};
    for (ProtoField e; entry.next(e);)
        if (e.wire == 0 && e.number >= 1 && e.number <= 7) *fields[e.number - 1] = e.i64();
    return s;
}

// GPUs of the system information: { 1 { 2 { repeated 7 GPU { 1 id, 2 name, ... },
// repeated 9 { 1 gpuId, 2 cudaId, 3 pid } } }, repeated 14 context, repeated 15 stream }: every
// GPU of the machine into Report::machine_gpus, and each named by CUDA device id as the export's
// TARGET_INFO_GPU joined with TARGET_INFO_CUDA_DEVICE; the CUDA devices, contexts and streams
// (TARGET_INFO_CUDA_*) into Report::cuda_devices, cuda_contexts and cuda_streams.
void readGpus(const RepLayout& layout, nsys::ReportBuilder& builder, Report& report) {
    std::map<int64_t, int64_t> cudaOfGpu;
    ProtoReader top(layout.system_info, 0);
    for (ProtoField vm; top.next(vm);) {
        if ((vm.number == 14 || vm.number == 15) && vm.wire == 2) {
            ProtoReader entry(vm.bytes, 0);
            if (vm.number == 14)
                report.cuda_contexts.push_back(cudaContext(entry));
            else
                report.cuda_streams.push_back(cudaStream(entry));
        }
        if (vm.number != 1 || vm.wire != 2) continue;
        ProtoReader vmFields(vm.bytes, 0);
        for (ProtoField system; vmFields.next(system);) {
            if (system.number != 2 || system.wire != 2) continue;
            ProtoReader systemFields(system.bytes, 0);
            for (ProtoField f; systemFields.next(f);) {
                if (f.wire != 2) continue;
                ProtoReader entry(f.bytes, 0);
                if (f.number == 7) {
                    MachineGpu gpu;
                    for (ProtoField e; entry.next(e);) {
                        const std::optional<GpuProperty> property = gpuPropertyOfField(e.number);
                        if (!property) continue;
                        const bool text = gpuPropertyColumns()[size_t(*property)].text;
                        if (text && e.wire == 2)
                            gpu[*property] = report.strings.intern(e.bytes);
                        else if (!text && e.wire == 0)
                            gpu[*property] = e.i64();
                    }
                    report.machine_gpus.push_back(gpu);
                } else if (f.number == 9) {
                    CudaDevice device;
                    for (ProtoField e; entry.next(e);) {
                        if (e.wire != 0) continue;
                        if (e.number == 1) device.gpu_id = e.i64();
                        if (e.number == 2) device.cuda_id = e.i64();
                        if (e.number == 3) device.pid = e.i64();
                    }
                    cudaOfGpu[device.gpu_id] = device.cuda_id;
                    report.cuda_devices.push_back(device);
                }
            }
        }
    }
    for (const MachineGpu& gpu : report.machine_gpus) {
        const int64_t id = gpu[GpuProperty::Id] != kNoGpuProperty ? gpu[GpuProperty::Id] : 0;
        // A copy: naming the GPU interns into the pool the name lies in.
        const std::string name = gpu[GpuProperty::Name] != kNoGpuProperty
                                     ? std::string(report.str(uint32_t(gpu[GpuProperty::Name])))
                                     : std::string();
        const auto cuda = cudaOfGpu.find(id);
        builder.setGpuName(cuda != cudaOfGpu.end() ? cuda->second : id, name);
    }
}

// The files kept with the report (Report::process_streams), their string ids made the model's
// (0, the empty string, for an id beyond the string table).
void readKeptFiles(const RepLayout& layout, const nsys::ReportBuilder& builder, Report& report) {
    auto model = [&](uint64_t id) {
        return builder.stringOrEmpty(static_cast<int64_t>(std::min<uint64_t>(id, INT64_MAX)));
    };
    for (const KeptFile& f : layout.kept_files)
        report.process_streams.push_back({f.global_pid, model(f.filename), model(f.content)});
}

// The capture settings (Report::capture_options); a damaged section is noted and left out, as
// nothing else depends on it.
void readCaptureOptions(const RepLayout& layout, Report& report) {
    if (layout.analysis_options.empty()) return;
    try {
        for (const CaptureSetting& s : readCaptureSettings(layout.analysis_options, layout.analysis_options_offset))
            report.capture_options.push_back({report.strings.intern(s.name), report.strings.intern(s.value)});
    } catch (const MalformedProto&) {
        report.capture_options.clear();
        countDiagnostic(report.diagnostics, Diag::NsysRepCaptureSettingsDamaged);
    }
}

// The target's properties (Report::system_properties), the environment's entries separated by
// ';' as the export writes them; those recorded as messages are left out
// (isStructuredSystemProperty).
void readSystemProperties(const RepLayout& layout, Report& report) {
    for (const RecordedSystemProperty& p : systemProperties(layout.summary)) {
        if (isStructuredSystemProperty(static_cast<uint32_t>(p.number))) continue;
        std::string value(p.value);
        if (p.number == kDeviceEnvironment) std::replace(value.begin(), value.end(), '\0', ';');
        report.system_properties.push_back(
            {static_cast<uint32_t>(p.number), report.strings.intern(p.device_state), report.strings.intern(value)});
    }
}

// Index field 1: the number of events the file holds.
uint64_t totalEvents(const RepLayout& layout) {
    ProtoReader index(layout.index, 0);
    for (ProtoField f; index.next(f);)
        if (f.number == 1 && f.wire == 0) return f.value;
    return 0;
}

// CUDA memory in use per (process, device) over time, as the SQLite importer builds it.
void buildMemoryCounters(std::vector<MemoryChange>& changes, Report& report, nsys::ReportBuilder& builder) {
    std::map<std::pair<int64_t, int64_t>, std::vector<MemoryChange>> byOwner;
    for (const MemoryChange& c : changes) byOwner[{c.global_pid, c.device}].push_back(c);
    for (auto& [key, list] : byOwner) {
        std::stable_sort(list.begin(), list.end(),
                         [](const MemoryChange& a, const MemoryChange& b) { return a.time_ns < b.time_ns; });
        Counter c;
        c.name_id = report.strings.intern("CUDA memory usage");
        c.unit_id = report.strings.intern("bytes");
        c.process = builder.processIndex(key.first);
        c.gpu = builder.gpuIndex(key.second);
        double used = 0;
        for (const MemoryChange& ch : list) {
            used += ch.bytes;
            c.time_ns.push_back(ch.time_ns);
            c.value.push_back(used);
        }
        report.counters.push_back(std::move(c));
    }
}

// Report::cuda_memory_events: the changes in time order (ties in file order), their process, GPU
// and name resolved as the SQLite importer resolves them.
void addCudaMemoryEvents(std::vector<MemoryChange>& changes, Report& report, nsys::ReportBuilder& builder) {
    std::stable_sort(changes.begin(), changes.end(),
                     [](const MemoryChange& a, const MemoryChange& b) { return a.time_ns < b.time_ns; });
    report.cuda_memory_events.reserve(changes.size());
    for (MemoryChange& c : changes) {
        c.event.process = builder.processIndex(c.global_pid);
        c.event.gpu = builder.gpuIndex(c.device);
        if (!c.name.empty()) c.event.name_id = report.strings.intern(c.name);
        report.cuda_memory_events.push_back(c.event);
    }
}

// Profiler overhead ranges, their pid resolved to a process and their globalTid to a thread as
// the SQLite importer does.
void addOverhead(Column<OverheadRange>& ranges, const std::vector<int64_t>& tids, Report& report,
                 nsys::ReportBuilder& builder) {
    std::map<int64_t, int32_t> processOfPid;
    for (size_t p = 0; p < report.processes.size(); ++p)
        processOfPid.try_emplace(report.processes[p].pid, static_cast<int32_t>(p));
    for (size_t i = 0; i < ranges.size(); ++i) {
        OverheadRange& o = ranges[i];
        auto it = processOfPid.find(o.process);
        o.process = it == processOfPid.end() ? -1 : it->second;
        if (o.process >= 0) o.thread = builder.threadIndex(tids[i]);
        if (o.name_id == UINT32_MAX) o.name_id = report.strings.intern("[unknown name]");
    }
    std::stable_sort(ranges.begin(), ranges.end(),
                     [](const OverheadRange& a, const OverheadRange& b) { return a.start_ns < b.start_ns; });
    report.profiler_overhead = std::move(ranges);
}

}  // namespace

std::string recordedVersion(const std::filesystem::path& path) {
    try {
        return readLayout(path).nsys_version;
    } catch (const std::exception&) {
        return {};
    }
}

MemoryEstimate estimateNative(const std::filesystem::path& path) {
    try {
        return estimateFromEvents(path, totalEvents(readLayout(path)));
    } catch (const std::exception&) {
        return {};  // no estimate: the import will say what is wrong
    }
}

ImportResult importNative(const std::filesystem::path& path, const ImportOptions& options, ProgressSink& progress,
                          std::stop_token stop) {
    progress.progress("reading the table of contents", 0, 0);
    RepLayout layout;
    try {
        layout = readLayout(path);
    } catch (const BadReport& e) {
        return corrupt(path, e.what());
    } catch (const MalformedProto& e) {
        return corrupt(path, std::string("damaged report structure: ") + e.what());
    }

    auto report = std::make_unique<Report>();
    Metadata& meta = report->meta;
    meta.format = "nsys-rep";
    meta.producer = "NVIDIA Nsight Systems";
    meta.version = layout.nsys_version;
    meta.nsys_version = layout.nsys_version;
    meta.reader = "native";
    meta.source_path = path.string();
    meta.rank = rankInEnvironment(deviceEnvironment(layout.summary)).rank;
    const VersionQuirks quirks = quirksFor(layout.nsys_version);
    const SessionTimes session = sessionTimes(layout.summary, quirks.year);
    meta.start_utc_ns = session.start_utc_ns.value_or(0);
    meta.utc_minus_local_ns = session.start_utc_ns ? session.utc_minus_local_ns : 0;
    meta.session_clock_start_ns = session.session_clock_start_ns.value_or(kUnknownTime);
    meta.session_clock_stop_ns = session.session_clock_stop_ns.value_or(kUnknownTime);
    if (!quirks.verified) countDiagnostic(report->diagnostics, Diag::NsysRepVersionUnverified);

    nsys::ReportBuilder builder(*report);
    try {
        builder.setStrings(layout.strings);
        readThreadNames(layout, builder);
        readGpus(layout, builder, *report);
    } catch (const MalformedProto& e) {
        return corrupt(path, std::string("damaged thread or system information: ") + e.what());
    }
    readSystemProperties(layout, *report);
    readKeptFiles(layout, builder, *report);
    readCaptureOptions(layout, *report);
    // The report's row for a viewer at once (its threads and GPUs are only named until their
    // events are merged), and every row once the events are merged.
    auto showSkeleton = [&] {
        if (options.on_skeleton) options.on_skeleton(builder.skeleton(report->meta));
    };
    showSkeleton();

    // Decode: each worker a contiguous run of blocks, so chunks in order are the file in order.
    const size_t blocks = layout.event_blocks.size();
    const unsigned threads =
        std::max<unsigned>(1, std::min<size_t>(options.threads ? options.threads : std::thread::hardware_concurrency(),
                                               std::max<size_t>(blocks, 1)));
    // One set of chunks per worker: columns of large capacity whose untouched tail costs no
    // memory (per-block chunks were tried: freed small columns stay in malloc's arenas, +50 MB).
    std::vector<TableChunks> chunks(threads);
    std::vector<BlockExtras> extras(threads);
    std::vector<std::string> errors(threads);
    std::atomic<uint64_t> done{0};
    std::atomic<bool> failed{false};
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return ImportError{ImportError::Kind::Unreadable, path.string() + ": cannot be read"};
    WorkerErrors workerErrors;
    {
        std::vector<std::jthread> pool;
        for (unsigned w = 0; w < threads; ++w)
            pool.emplace_back(workerErrors.guard([&, w] {
                const size_t first = blocks * w / threads, last = blocks * (w + 1) / threads;
                std::string scratch, raw;
                for (size_t b = first; b < last && !failed && !stop.stop_requested(); ++b) {
                    const BlockRef& block = layout.event_blocks[b];
                    try {
                        inflateBlockInto(fd, block, scratch, raw);
                        decodeBlock(raw, block.offset, builder, quirks, chunks[w], extras[w]);
                    } catch (const BadReport& e) {
                        errors[w] = e.what();
                        failed = true;
                    } catch (const MalformedProto& e) {
                        errors[w] = "damaged event block at byte " + std::to_string(block.offset) + ": " + e.what();
                        failed = true;
                    }
                    progress.progress("decoding event blocks", done.fetch_add(1) + 1, blocks);
                }
            }));
    }
    ::close(fd);
    workerErrors.rethrow();
    if (stop.stop_requested()) return ImportError{ImportError::Kind::Cancelled, "import cancelled"};
    for (const std::string& e : errors)
        if (!e.empty()) return corrupt(path, e);

    // Names first (lanes take their process's name when created), then the events table by
    // table in the SQLite importer's order, then what depends on the processes.
    progress.progress("merging rows into lanes", 0, 0);
    for (BlockExtras& e : extras)
        for (const auto& [globalPid, name] : e.processes) builder.setProcessName(globalPid, name);
    for (auto table :
         {&TableChunks::nvtx, &TableChunks::cuda_api, &TableChunks::osrt, &TableChunks::openmp, &TableChunks::kernels,
          &TableChunks::memcpy, &TableChunks::memset, &TableChunks::sync, &TableChunks::graphs,
          &TableChunks::cuda_events, &TableChunks::gpu_faults, &TableChunks::cpu_faults, &TableChunks::samples,
          &TableChunks::graph_events, &TableChunks::messages}) {
        std::vector<nsys::EventChunk> ordered;
        ordered.reserve(threads);
        for (TableChunks& c : chunks) ordered.push_back(std::move(c.*table));
        builder.merge(ordered, threads);
    }
    progress.progress("completing the report", 0, 0);
    std::vector<MemoryChange> memory;
    Column<OverheadRange> overhead;
    std::vector<int64_t> overheadTids;
    std::vector<GenericEvent> generic;
    for (BlockExtras& e : extras) {
        memory.insert(memory.end(), e.memory.begin(), e.memory.end());
        overhead.insert(overhead.end(), e.overhead.begin(), e.overhead.end());
        overheadTids.insert(overheadTids.end(), e.overhead_tids.begin(), e.overhead_tids.end());
        for (GenericEvent& g : e.generic) generic.push_back(std::move(g));
        e.generic.clear();
    }
    try {
        readGenericEventSchema(layout, generic, builder, *report);
        buildGpuMetrics(generic, *report);
    } catch (const MalformedProto& e) {
        return corrupt(path, std::string("damaged index message: ") + e.what());
    }
    addNvtxPayloadSchemas(layout, builder, *report);
    buildMemoryCounters(memory, *report, builder);
    addCudaMemoryEvents(memory, *report, builder);
    addOverhead(overhead, overheadTids, *report, builder);
    showSkeleton();
    builder.complete();
    uint64_t decoded = 0;
    for (const BlockExtras& e : extras) decoded += e.events;
    if (decoded != totalEvents(layout)) countDiagnostic(report->diagnostics, Diag::NsysRepEventCountMismatch);
    return ImportResult(std::move(report));
}

}  // namespace lanescope::nsysrep
