#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/CallStacks.h"
#include "model/DerivedCache.h"
#include "model/FileOrder.h"
#include "model/GpuProperties.h"
#include "model/Lane.h"
#include "model/NvtxPayload.h"
#include "model/PytorchMemory.h"
#include "model/SideTables.h"
#include "model/StringPool.h"

namespace lanescope {

// A profiled process. Processes are in the order the importer met them.
struct Process {
    int64_t pid = 0;
    uint32_t name_id = 0;  // into Report::strings
};

// A CPU thread, owned by processes[process]. priority: the scheduling priority nsys recorded
// with its name (ThreadNames.priority), kNoPriority when none was recorded.
inline constexpr int32_t kNoPriority = INT32_MIN;
struct Thread {
    int64_t tid = 0;
    int32_t process = -1;
    uint32_t name_id = 0;
    int32_t priority = kNoPriority;
};

// A process or thread name as the report recorded it, whether or not the process or thread has
// events (Report::recorded_names). tid is kProcessOwnName for the process's own name.
inline constexpr int64_t kProcessOwnName = INT64_MIN;
struct RecordedName {
    int64_t pid = 0;
    int64_t tid = kProcessOwnName;
    uint32_t name_id = 0;            // into Report::strings
    int32_t priority = kNoPriority;  // a thread's scheduling priority as recorded; a process has none
};

// A GPU; index in Report::gpus is the one lanes refer to. device_id is the CUDA device id.
struct Gpu {
    int64_t device_id = 0;
    uint32_t name_id = 0;
};

// A sampled counter (GPU metric, memory usage) as (time, value) columns, sorted by time_ns
// ascending; a value holds until the next sample (step function). Units in unit_id.
struct Counter {
    uint32_t name_id = 0;
    uint32_t unit_id = 0;  // e.g. "%", "MHz", "bytes"
    int32_t gpu = -1;      // index into Report::gpus, or -1
    int32_t process = -1;  // index into Report::processes, or -1
    // Made by finishReport from the lanes (whole-CPU utilization, unified memory migrated), not
    // read from the file: an export leaves it out, and the import of that export makes it again.
    bool derived = false;
    Column<int64_t> time_ns;
    Column<double> value;
};

inline constexpr int64_t kUnknownTime = INT64_MIN;

struct Metadata {
    std::string format;        // "nsys-sqlite", ...
    std::string producer;      // "NVIDIA Nsight Systems"
    std::string version;       // producer version, e.g. "2025.3.2.0"
    int64_t start_utc_ns = 0;  // session start, UTC nanoseconds since the epoch; 0 if unknown
    // The recording machine's offset from UTC (local time = UTC - this), in ns; 0 if unknown.
    int64_t utc_minus_local_ns = 0;
    // The session's start and stop on the profiler's own session clock (nsys ANALYSIS_DETAILS
    // startTime/stopTime, ns), kUnknownTime where the format does not record them.
    int64_t session_clock_start_ns = kUnknownTime;
    int64_t session_clock_stop_ns = kUnknownTime;
    int64_t begin_ns = 0;      // first time on the report's timeline
    int64_t end_ns = 0;        // last time on the report's timeline
    int rank = -1;             // distributed rank when known
    std::string reader;        // Nsight Systems reports: "native" or "nsys-export"; else empty
    std::string nsys_version;  // Nsight Systems reports: the version that recorded it, if known
    std::string source_path;   // the file the user opened

    std::string fileName() const;  // the last part of source_path
};

// Named counts of data-quality problems found while importing, by name, sorted by name.
using Diagnostics = std::map<std::string, uint64_t>;

// Event counts per kind, as `lanescope-cli info` reports them.
struct EventCounts {
    uint64_t kernels = 0, memcpy = 0, memset = 0, cuda_api = 0, nvtx = 0, osrt = 0, nccl = 0, sync = 0, mpi = 0,
             openmp = 0, slices = 0, instants = 0, counter_samples = 0;
    uint64_t cpu_samples = 0, context_switches = 0;  // not in slices or instants
    uint64_t graph_executions = 0, cuda_events = 0, um_cpu_page_faults = 0, um_gpu_page_faults = 0;
};

// A time when the profiler itself kept a process busy (nsys PROFILER_OVERHEAD: buffer
// flushes, TLS allocation, ...). process is an index into Report::processes, -1 if unknown.
struct OverheadRange {
    int64_t start_ns = 0;
    int64_t end_ns = 0;
    int32_t process = -1;
    uint32_t name_id = 0;      // into Report::strings, e.g. "CUPTI Buffer flush"
    int32_t thread = -1;       // index into Report::threads, -1 if unknown
    int32_t return_value = 0;  // as recorded (nsys's returnValue), 0 where the format has none
};

// One imported report: immutable once the importer returns it, readable from any thread.
struct Report {
    Metadata meta;
    StringPool strings;
    std::vector<Process> processes;
    std::vector<Thread> threads;
    std::vector<Gpu> gpus;
    // Every GPU of the recording machine as the report describes it (nsys's TARGET_INFO_GPU),
    // used by the recorded processes or not, in the report's order; empty where the format
    // describes none (PyTorch and Perfetto traces). 320 bytes a GPU.
    Column<MachineGpu> machine_gpus;
    // The recording machine's properties (host, OS, CPU, drivers, environment, what it
    // supports) in the report's order; empty where the format records none.
    Column<SystemProperty> system_properties;
    // The CUDA devices, contexts and streams the recorded processes had (model/SideTables.h), in
    // the report's order; empty where the format records none (PyTorch and Perfetto traces).
    Column<CudaDevice> cuda_devices;
    Column<CudaContext> cuda_contexts;
    Column<CudaStream> cuda_streams;
    // Every process and thread name the report records, also of those without events (nsys
    // records the whole machine's: its PROCESSES and ThreadNames), for the SQL tables; a thread
    // without a recorded name is absent. The processes' names, then the threads', each in the
    // order the report recorded them (nsys: the file's order, which its export's PROCESSES and
    // ThreadNames keep). 24 bytes a name. Empty where the format records none or its importer
    // keeps none (Kineto, Perfetto).
    std::vector<RecordedName> recorded_names;
    // Grouped by owner as the importer built them, but for the streams' kernel lanes, which follow
    // one another, their columns packed in one block, with the memory lanes split from them after
    // them (importers/KernelLanes.h).
    std::vector<Lane> lanes;
    std::vector<Counter> counters;
    Column<KernelInfo> kernels;
    Column<KernelConfig> kernel_configs;
    Column<MemcpyInfo> memcpys;
    Column<MemsetInfo> memsets;
    Column<SyncInfo> syncs;
    Column<NvtxInfo> nvtx;
    Column<GraphExecutionInfo> graph_executions;
    Column<CudaEventInfo> cuda_events;  // in the report's order (Nsight Systems: the file's)
    Column<GpuPageFaultInfo> gpu_page_faults;
    Column<CpuPageFaultInfo> cpu_page_faults;
    Column<Migration> migrations;                // sorted by memcpy row
    Column<PeerCopy> peer_copies;                // sorted by memcpy row; copies of other kinds are absent
    Column<KernelGraphNode> kernel_graph_nodes;  // sorted by kernel row; kernels not in a graph are absent
    // PyTorch's collective args (Kineto traces), in file order: those of NCCL kernels
    // (CollectiveArgs::kernel_row) and of record_param_comms operators (NvtxInfo::collective_args).
    Column<CollectiveArgs> collective_args;
    Column<GraphApiEvent> graph_api_events;  // sorted by start_ns
    Column<ProcessStream> process_streams;   // in the report's order
    Column<CaptureOption> capture_options;   // in the report's order (META_DATA_CAPTURE's)
    // The generic-event schema, in the report's order: the sources some event belongs to, their
    // types, and the types' fields (type by type, each type's in index order).
    Column<GenericEventSource> generic_event_sources;
    Column<GenericEventType> generic_event_types;
    Column<GenericEventField> generic_event_fields;
    std::vector<NsysMessage> nsys_messages;  // in the report's order
    // PyTorch's allocations and frees (the "[memory]" events of a Kineto trace made with
    // profile_memory=True), sorted by time_ns, ties in file order; empty for other formats.
    // 48 bytes an event (model/PytorchMemory.h).
    Column<PytorchMemoryEvent> pytorch_memory;
    // Nsight Systems' CUDA memory usage events (--cuda-memory-usage), sorted by time_ns, ties in
    // file order; their running sum per process and GPU is also a "CUDA memory usage" counter.
    Column<CudaMemoryEvent> cuda_memory_events;
    // The whole-CPU utilization counter (percent of the cores running a thread) made from the
    // CPU core lanes, an index into counters; -1 when the report has no context switches.
    int32_t cpu_utilization_counter = -1;
    // Result codes of the CUDA API and OS runtime calls that did not return 0 (cudaSuccess); a
    // call not listed returned 0. An OS runtime call's correlation_id is kNoPayload. Sorted by
    // (thread, start_ns, correlation_id); see cudaApiResult().
    Column<CallResult> cuda_api_results;
    // The CPU samples whose state or cycle count is not the usual one (model/SideTables.h
    // SampleCounts), sorted by (thread, time_ns); see sampleCountsAt(). Empty in every corpus
    // report: all their samples are the usual.
    Column<SampleCounts> unusual_samples;
    // Start times (ns) of the report's NVTX events that no lane holds: domain creations,
    // category and thread names, ranges dropped by the importer (without an end, ...). Sorted
    // ascending. With the lanes' NVTX ranges and markers they give each range its position
    // among all the report's NVTX events, which is nsys's RangeId (analysis/NvtxRangeIds.h).
    Column<int64_t> nvtx_other_starts_ns;
    // The named NVTX domains' creations, sorted by (start_ns, thread); their starts are among
    // nvtx_other_starts_ns too. Empty for formats that do not record them.
    Column<NvtxDomainCreation> nvtx_domains;
    // The NVTX events naming a category or a thread (model/SideTables.h), sorted by (start_ns,
    // thread); their starts are among nvtx_other_starts_ns too. Empty for formats without them.
    Column<NvtxNaming> nvtx_namings;
    // The NVTX events that share their start with another recorded next to them, sorted by
    // start_ns, events of equal start in the report's order; nsys's NVTX_EVENTS rowids follow it
    // (analysis/NvtxRangeIds.h). Empty where the report has no such events or the format no order.
    Column<NvtxTie> nvtx_ties;
    // NVTX extended payloads: the schemas registered and each payload's bytes, found by the event
    // that carries it (model/NvtxPayload.h; decoded by model/NvtxPayloadDecoder.h).
    NvtxPayloads nvtx_payloads;
    Column<OverheadRange> profiler_overhead;  // sorted by start_ns; the gpu_gaps rule uses some
    CallStacks stacks;                        // of CPU samples and call backtraces
    Column<CallBacktrace> backtraces;         // sorted by (thread, lane kind, start_ns)
    // The frames' details (model/CallStacks.h FrameDetail) of the backtraces, each backtrace's
    // frames together innermost first (CallBacktrace::first_detail), and of the CPU samples, sample
    // after sample in the report file's order (SAMPLING_CALLCHAINS' row order); empty where the
    // report records none.
    Column<FrameDetail> backtrace_frame_details;
    Column<FrameDetail> sample_frame_details;
    // The report file's order of the OS runtime calls, CUDA API calls, CPU samples and context
    // switches, as runs of the lanes' events (model/FileOrder.h), which the SQL tables list them
    // in; empty for formats without one.
    FileOrder file_order;
    Diagnostics diagnostics;
    // What only some readers need, computed on first use (see model/DerivedCache.h).
    DerivedCache derived;

    EventCounts counts() const;  // a walk over every event: see finishedCounts
    // Resident bytes of the model: columns, side tables, counters and the string pool.
    size_t memoryBytes() const;
    std::string_view str(uint32_t id) const { return strings.str(id); }
};

// The recorded state and cycle count of a thread's CPU sample at time t: its row of
// Report::unusual_samples, else the usual. O(log n) in the number of unusual samples.
SampleCounts sampleCountsAt(const Report& report, int32_t thread, int64_t t);

// The result code of the CUDA API call `index` of a CudaApi lane (or OS runtime call of an
// OsRuntime lane): 0 unless listed in
// Report::cuda_api_results. O(log n) in the number of non-zero results.
int32_t cudaApiResult(const Report& report, const Lane& lane, size_t index);

// Whether the SQL ThreadNames lists a thread (query/ReportTables.cpp): when the report recorded
// names (recorded_names), those, found by (pid, tid); else every thread (a PyTorch trace).
// listedThreads answers for each of Report::threads at once.
bool listedInThreadNames(const Report& report, const Thread& thread);
std::vector<bool> listedThreads(const Report& report);

// The rank a report belongs to: its own metadata, set on import in this order: the MPI rank it
// records ("MPI Rank 4" in an NVTX mark or thread name), a rank variable of the environment nsys
// captured (model/MpiRank.h kRankVariables), Kineto distributedInfo; else "rank<N>" in its file
// name (ddp_rank1.sqlite); else -1. model/MpiRank.h rankSource says which.
int rankOf(const Report& report);
// "rank 1", or the file name when the rank is unknown.
std::string rankLabel(const Report& report);
// "rank 1 · ddp_rank1.sqlite", or the file name when the rank is unknown.
std::string reportTitle(const Report& report);

// Report::counts() of a finished report, counted once and kept with it (Report::derived): for
// the viewer, which shows them on every selection change. O(1) after the first call.
const EventCounts& finishedCounts(const Report& report);

}  // namespace lanescope
