#pragma once
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace lanescope {

// Per-kind details of interval events, referenced by IntervalColumns::payload.
// Each table is in import order (not time order); rows are never shared between events
// except NvtxInfo rows, which are deduplicated when they carry no per-event value.

// How a kernel was launched: shared by every launch with the same configuration, so the
// table holds one row per distinct configuration. Sizes in bytes. The occupancy estimates
// depend only on the launch configuration and the GPU; PyTorch (Kineto) traces record them,
// nsys does not: negative means not recorded.
struct KernelConfig {
    uint32_t grid[3] = {0, 0, 0};
    uint16_t block[3] = {0, 0, 0};
    uint16_t registers_per_thread = 0;
    uint32_t static_shared_bytes = 0;
    uint32_t dynamic_shared_bytes = 0;
    uint32_t local_bytes_per_thread = 0;
    // The shared memory the SM was configured with for the launch (its carveout, nsys's
    // sharedMemoryExecuted), which bounds the blocks resident at once; kNoSharedExecuted where
    // the format does not record it (Kineto, Perfetto).
    uint32_t shared_executed_bytes = UINT32_MAX;
    uint32_t short_name_id = 0;             // into Report::strings
    float blocks_per_sm = -1;               // Kineto "blocks per SM": blocks / SMs
    float warps_per_sm = -1;                // Kineto "warps per SM": warps / SMs
    float est_achieved_occupancy_pct = -1;  // Kineto "est. achieved occupancy %", 0 to 100
    uint8_t launch_type = 0;                // ENUM_CUDA_KERNEL_LAUNCH_TYPE: 1 regular, 2/3 cooperative
    // What nsys records of the kernel's function and context, each its "not recorded" constant
    // below where the format does not record it (Kineto, Perfetto; the mangled name before 2021):
    uint32_t mangled_name_id = kNoMangledName;            // into Report::strings
    uint64_t local_memory_total = kNoLocalMemoryTotal;    // bytes of local memory the context reserved
    uint8_t cache_config = kNoCacheConfig;                // ENUM_CUDA_FUNC_CACHE_CONFIG
    uint8_t shared_memory_limit_config = kNoCacheConfig;  // ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG
    bool operator==(const KernelConfig&) const = default;

    static constexpr uint32_t kNoMangledName = UINT32_MAX;
    static constexpr uint64_t kNoLocalMemoryTotal = UINT64_MAX;
    static constexpr uint8_t kNoCacheConfig = UINT8_MAX;
};

inline constexpr uint32_t kNoSharedExecuted = UINT32_MAX;

// One kernel launch: 16 bytes. grid_id: the launch's CUPTI grid id (nsys's gridId), kNoGridId
// where the format does not record it (Kineto, Perfetto).
inline constexpr int64_t kNoGridId = INT64_MIN;
struct KernelInfo {
    uint32_t config = 0;  // row of Report::kernel_configs
    uint32_t correlation_id = 0;
    int64_t grid_id = kNoGridId;
};

// CUDA memcpy direction, as ENUM_CUDA_MEMCPY_OPER numbers it.
enum class CopyKind : uint8_t {
    Unknown = 0,
    HtoD = 1,
    DtoH = 2,
    HtoA = 3,
    AtoH = 4,
    AtoA = 5,
    AtoD = 6,
    DtoA = 7,
    DtoD = 8,
    HtoH = 9,
    PtoP = 10,
    UvmHtoD = 11,
    UvmDtoH = 12,
    UvmDtoD = 13,
};
const char* copyKindLabel(CopyKind kind);  // "Host-to-Device", as nsys labels it

// CUDA memory kinds, as ENUM_CUDA_MEM_KIND numbers them.
enum class MemKind : uint8_t {
    Pageable = 0,
    Pinned = 1,
    Device = 2,
    Array = 3,
    Managed = 4,
    DeviceStatic = 5,
    ManagedStatic = 6,
    Unknown = 7,
};
const char* memKindLabel(MemKind kind);

// One memory copy. bytes in bytes. copy_count: how many copies the record stands for (nsys's
// copyCount), 0 where not recorded (unified-memory migrations, formats other than nsys's).
struct MemcpyInfo {
    uint64_t bytes = 0;
    uint32_t correlation_id = 0;
    CopyKind copy_kind = CopyKind::Unknown;
    MemKind src_kind = MemKind::Unknown;
    MemKind dst_kind = MemKind::Unknown;
    uint32_t copy_count = 0;
};

// One memset. bytes in bytes.
struct MemsetInfo {
    uint64_t bytes = 0;
    uint32_t correlation_id = 0;
    uint32_t value = 0;
    MemKind mem_kind = MemKind::Unknown;
};

// One CUDA allocation or free recorded with --cuda-memory-usage: a row of nsys's
// CUDA_GPU_MEMORY_USAGE_EVENTS. Addresses and sizes in bytes; 64 bytes a row.
struct CudaMemoryEvent {
    int64_t time_ns = 0;
    uint64_t address = 0;           // virtual address of the allocation
    uint64_t bytes = 0;             // allocated or freed
    uint64_t pc = 0;                // program counter of the call, 0 where not recorded
    int32_t process = -1;           // index into Report::processes
    int32_t gpu = -1;               // index into Report::gpus: the device recorded
    uint32_t context_id = 0;        // the CUDA context
    uint32_t correlation_id = 0;    // of the CUDA API call; 0 for a module's static variable
    uint32_t name_id = UINT32_MAX;  // a static variable's name; kNoVariableName for none
    MemKind mem_kind = MemKind::Unknown;
    bool freed = false;  // a deallocation (memoryOperationType 1), else an allocation (0)
};
inline constexpr uint32_t kNoVariableName = UINT32_MAX;

// One property of the recording machine as Nsight Systems records it (a row of the export's
// TARGET_INFO_SYSTEM_ENV): its number (model/SystemProperties.h names them), the device state
// it was recorded in ("Local (CLI)") and its text, both ids into Report::strings. 12 bytes.
struct SystemProperty {
    uint32_t name_enum = 0;
    uint32_t device_state_id = 0;
    uint32_t value_id = 0;
};

// The CUDA devices, contexts and streams of the recorded processes, as Nsight Systems records
// them (rows of the export's TARGET_INFO_CUDA_DEVICE, TARGET_INFO_CUDA_CONTEXT_INFO and
// TARGET_INFO_CUDA_STREAM), streams without any activity included. pid is the process id (not a
// globalPid); ids are CUDA's. A value a report does not record is kNotRecorded.
inline constexpr int64_t kNotRecorded = INT64_MIN;
struct CudaDevice {
    int64_t gpu_id = 0;   // the machine's GPU (TARGET_INFO_GPU.id)
    int64_t cuda_id = 0;  // its CUDA device number in the process
    int64_t pid = 0;
};
struct CudaContext {
    int64_t null_stream_id = 0;
    int64_t hw_id = 0;
    int64_t vm_id = 0;
    int64_t pid = 0;
    int64_t device_id = 0;
    int64_t context_id = 0;
    int64_t parent_context_id = kNotRecorded;  // recorded from 2025 on, as is is_green_context
    int64_t is_green_context = kNotRecorded;
};
struct CudaStream {
    int64_t stream_id = 0;
    int64_t hw_id = 0;
    int64_t vm_id = 0;
    int64_t pid = 0;
    int64_t context_id = 0;
    int64_t priority = 0;
    int64_t flag = 0;
};

// One synchronization event (CUPTI synchronization activity).
struct SyncInfo {
    uint32_t correlation_id = 0;
    uint8_t sync_type = 0;  // ENUM_CUPTI_SYNC_TYPE: 1 event, 2 stream wait, 3 stream, 4 context
    // The recording kept the type in its field of before 2025, which nsys 2025.3's export writes as
    // deprecatedSyncType with syncType 0 (reports of 2020 to 2023), where a 2025 recording has no
    // eventSyncId either (NULL, against 4294967295 for none in a 2025 one).
    bool deprecated_type = false;
    // For an event sync or stream wait: the eventSyncId of the CUDA event record it waited
    // for (CudaEventInfo::event_sync_id); kNoEventSync otherwise.
    uint32_t event_sync_id = UINT32_MAX;
    // CUPTI's id of the CUDA event waited for (eventId), as the recording has it: kNoEventId
    // (4294967295) where none (a stream or context sync), and for some event syncs of old reports too.
    uint32_t event_id = UINT32_MAX;
};
inline constexpr uint32_t kNoEventSync = UINT32_MAX;
inline constexpr uint32_t kNoEventId = UINT32_MAX;

// The non-zero result code of one CUDA API call (CUPTI returnValue, e.g. 600
// cudaErrorNotReady), found by its thread (index into Report::threads), start and
// correlation id: 24 bytes per failed call, nothing for the calls that returned 0.
struct CallResult {
    int32_t thread = -1;
    uint32_t correlation_id = 0;
    int64_t start_ns = 0;
    int32_t result = 0;
    auto key() const { return std::tuple(thread, start_ns, correlation_id); }
};

// A CPU sample's thread state and cycle count as recorded (nsys COMPOSITE_EVENTS threadState,
// ENUM_SAMPLING_THREAD_STATE, and cpuCycles) where they are not the usual 1 (running) and 1.
// The sample is thread's (an index into Report::threads) at time_ns. 24 bytes.
inline constexpr uint32_t kUsualSampleState = 1;
inline constexpr int64_t kUsualSampleCycles = 1;
struct SampleCounts {
    int32_t thread = -1;
    uint32_t state = kUsualSampleState;
    int64_t time_ns = 0;
    int64_t cycles = kUsualSampleCycles;
    auto key() const { return std::pair(thread, time_ns); }
};

// NVTX range or marker attributes. color is 0xAARRGGBB; has_color false means the default.
// A PyTorch operator (a Kineto `cpu_op` event, on a lane named kPytorchOperatorLaneName) also
// carries its input shapes as the trace records them (Kineto's "Input Dims" arg, present with
// record_shapes=True), in one canonical text: the JSON without whitespace except one space
// after each comma outside strings, e.g. "[[64, 3, 32, 32], [32], []]". Rows are deduplicated
// by content, so operators of the same shapes share one and the table stays small.
struct NvtxInfo {
    uint32_t color = 0;
    uint32_t domain_name_id = 0;  // into Report::strings; 0 = default domain
    uint32_t category = 0;
    bool has_color = false;
    bool start_end = false;        // true for start/end ranges, false for push/pop
    uint32_t input_shapes_id = 0;  // into Report::strings; 0 = none (not an operator, or not recorded)
    // A record_param_comms operator's collective args: row + 1 into Report::collective_args; 0 = none.
    uint32_t collective_args = 0;
    // nsys's number of the domain (NVTX_EVENTS.domainId): its process's domains from 1 in creation
    // order, 0 = the default domain or a format without domain numbers.
    uint32_t domain_id = 0;
    // The name is a registered string (nvtxDomainRegisterString): nsys's export writes it as
    // NVTX_EVENTS.textId (the name's id in Report::strings), not as text.
    bool registered_name = false;
};

// A collective's parameters as the PyTorch profiler records them (2.1 and later), on an NCCL
// kernel or on the record_param_comms operator around its launch: "Collective name", "In msg
// nelems", "Out msg nelems", "dtype", "Group size", "Process Group Name", "Process Group Ranks".
struct CollectiveArgs {
    uint32_t kernel_row = kNotOnKernel;       // row of Report::kernels when on a kernel
    uint32_t name_id = 0;                     // into Report::strings: "allreduce", "broadcast", ...
    uint32_t dtype_id = 0;                    // "Float", "BFloat16", ...
    uint32_t group_name_id = 0;               // "0"
    uint32_t group_ranks_id = 0;              // "[0, 1]"
    int64_t in_nelems = -1, out_nelems = -1;  // elements; -1 when not recorded
    int32_t group_size = -1;                  // ranks; -1 when not recorded
    bool operator==(const CollectiveArgs&) const = default;

    static constexpr uint32_t kNotOnKernel = UINT32_MAX;
};

// The creation of a named NVTX domain (nvtxDomainCreate), whose ranges' NvtxInfo::domain_name_id
// is this name_id.
struct NvtxDomainCreation {
    int64_t start_ns = 0;    // when it was created: often before the report's timeline starts (< 0)
    int32_t thread = -1;     // index into Report::threads
    uint32_t name_id = 0;    // into Report::strings
    uint32_t domain_id = 0;  // nsys's number of the domain, as NvtxInfo::domain_id
    bool operator==(const NvtxDomainCreation&) const = default;
};

// Which of a report's NVTX events an NvtxTie is: a range of a thread's NVTX lane, a mark of
// one, or an event no lane holds (a domain creation, a naming, a range the importer dropped).
enum class NvtxHolder : uint8_t { Other, Range, Mark };

// An NVTX event that starts at the same nanosecond as the NVTX event recorded before it, or
// after it (Report::nvtx_ties). nsys numbers NVTX_EVENTS in the report's order, which is by
// start but, between events of equal start, says nothing that start and thread give. 16 bytes.
struct NvtxTie {
    int64_t start_ns = 0;
    int32_t thread = -1;  // index into Report::threads of a lane's event; -1 for NvtxHolder::Other
    NvtxHolder holder = NvtxHolder::Other;
    bool operator==(const NvtxTie&) const = default;
};

// nsys's NVTX event types (ENUM_NSYS_EVENT_TYPE) of the naming events no lane holds.
inline constexpr uint16_t kNvtxCategoryNameEvent = 33, kNvtxThreadNameEvent = 39;

// An NVTX event that names a category (nvtxNameCategory, event type 33) or an OS thread
// (nvtxNameOsThread, 39: "MPI Rank 3"), kept for nsys's NVTX_EVENTS, where each is a row; its start
// is among Report::nvtx_other_starts_ns too. 32 bytes.
struct NvtxNaming {
    int64_t start_ns = 0;    // when it was recorded, ns
    int32_t thread = -1;     // index into Report::threads of the thread that recorded it
    uint32_t name_id = 0;    // the name given, into Report::strings; 0 = none
    uint32_t domain_id = 0;  // as NvtxInfo::domain_id
    uint32_t category = 0;   // the category named (type 33), else as recorded (0 = none)
    uint16_t event_type = kNvtxThreadNameEvent;
    bool registered_name = false;  // as NvtxInfo::registered_name
    bool operator==(const NvtxNaming&) const = default;
};

// One execution of a CUDA graph traced as a whole (nsys --cuda-graph-trace=graph,
// CUPTI_ACTIVITY_KIND_GRAPH_TRACE): its kernels are not recorded one by one.
struct GraphExecutionInfo {
    uint32_t correlation_id = 0;  // of the cudaGraphLaunch that started it
    uint32_t graph_id = 0;
    uint32_t graph_exec_id = 0;
};

// A CUDA graph's life on the CPU (CUDA_GRAPH_EVENTS: creation, instantiation, cloning,
// destruction) or one of its nodes' (CUDA_GRAPH_NODE_EVENTS), on a thread. Ids that nsys
// leaves NULL are kNoGraphId.
inline constexpr uint64_t kNoGraphId = UINT64_MAX;
struct GraphApiEvent {
    int64_t start_ns = 0;
    int64_t end_ns = 0;
    int32_t thread = -1;                      // index into Report::threads
    uint32_t name_id = 0;                     // into Report::strings, e.g. "cudaGraphInstantiate"
    bool node = false;                        // true: a node event (graph_id holds graphNodeId)
    uint64_t graph_id = kNoGraphId;           // graphId, or graphNodeId for a node event
    uint64_t original_graph_id = kNoGraphId;  // originalGraphId / originalGraphNodeId (clones)
    uint64_t graph_exec_id = kNoGraphId;      // graphExecId (graph events only)
};

// The graph node a kernel ran as (nsys --cuda-graph-trace=node: the kernel's graphNodeId).
struct KernelGraphNode {
    uint32_t kernel = 0;  // row of Report::kernels
    uint64_t graph_node_id = 0;
};

// A CUDA event record on a stream (CUPTI_ACTIVITY_KIND_CUDA_EVENT). The record has no time of
// its own: it is shown at the end of its cudaEventRecord call, found by correlation id.
struct CudaEventInfo {
    uint32_t correlation_id = 0;
    uint32_t event_id = 0;
    uint32_t event_sync_id = 0;  // the synchronization waiting for it has the same eventSyncId
};

// Unified memory: a group of GPU page faults (CUDA_UM_GPU_PAGE_FAULT_EVENTS).
struct GpuPageFaultInfo {
    uint64_t address = 0;
    uint32_t faults = 0;      // numberOfPageFaults
    uint8_t access_type = 0;  // ENUM_CUDA_UM_ACCESS_TYPE: 0 unknown, 1 read, 2 write, 3 atomic, 4 prefetch
};

// Unified memory: one CPU page fault (CUDA_UM_CPU_PAGE_FAULT_EVENTS).
struct CpuPageFaultInfo {
    uint64_t address = 0;
    uint64_t fault_pc = 0;        // originalFaultPc: the faulting CPU instruction
    uint32_t instruction_id = 0;  // into Report::strings: the instruction as nsys names it ("0x7fad699bb602")
    uint32_t source_file_id = 0;  // into Report::strings; 0 = not resolved
    uint32_t source_line = 0;
    uint32_t module_id = 0;      // into Report::strings: the module of the instruction; 0 = none recorded
    bool pc_unresolved = false;  // unresolvedFaultPc: nsys could not resolve the instruction to a symbol
};

// A peer copy's devices and contexts (a memcpy of kind PtoP: CUPTI_ACTIVITY_KIND_MEMCPY's
// srcDeviceId, srcContextId, dstDeviceId, dstContextId; NULL there for every other copy).
struct PeerCopy {
    uint32_t memcpy = 0;  // row of Report::memcpys
    uint32_t src_device = 0;
    uint32_t src_context = 0;
    uint32_t dst_device = 0;
    uint32_t dst_context = 0;
};

// Unified memory: the migration a memcpy of kind UvmHtoD/UvmDtoH/UvmDtoD is.
struct Migration {
    uint32_t memcpy = 0;  // row of Report::memcpys
    uint8_t cause = 0;    // ENUM_CUDA_UM_MIGRATION_CAUSE: 2 on fault, 3 prefetch, ...
    uint64_t virtual_address = 0;
};

// A file Nsight Systems kept with the report (nsys's ProcessStreams and ANALYSIS_FILE): a
// launched process's standard output or error, or a file the capture read (a GPU metrics
// configuration).
struct ProcessStream {
    int64_t global_pid = 0;    // nsys globalPid of the process; pid 0 for the capture's own files
    uint32_t filename_id = 0;  // into Report::strings: the file's path
    uint32_t content_id = 0;   // into Report::strings: what it held
};

// The schema of a report's generic events (nsys's GENERIC_EVENT_SOURCES, _TYPES, _TYPE_FIELDS;
// GPU metrics samples are such events): a source of events, ...
struct GenericEventSource {
    uint64_t source_id = 0;
    uint32_t name_id = 0;      // into Report::strings ("GpuMetrics")
    uint32_t time_source = 0;  // ENUM_NSYS_GENERIC_EVENT_SOURCE: the clock of its events
};
// ... a type of event of a source (the source's id is the type id's high 32 bits), ...
struct GenericEventType {
    uint64_t type_id = 0;
    uint32_t name_id = 0;  // into Report::strings
};
// ... and a field of a type's fixed-layout record.
struct GenericEventField {
    uint64_t type_id = 0;
    uint32_t index = 0;    // its position among its type's fields
    uint32_t name_id = 0;  // into Report::strings ("GPC Clock Frequency [MHz]")
    uint32_t offset = 0;   // bytes into the record
    uint32_t size = 0;     // bytes
    uint32_t type = 0;     // ENUM_NSYS_GENERIC_EVENT_FIELD_TYPE
};

// One capture setting as nsys's META_DATA_CAPTURE lists it ("OS_RUNTIME_OPTIONS:COLLECT_BACKTRACES",
// "true").
struct CaptureOption {
    uint32_t name_id = 0;   // into Report::strings
    uint32_t value_id = 0;  // into Report::strings
};

// One message Nsight Systems itself wrote into the report (DIAGNOSTIC_EVENT), apart from the
// diagnostics Lanescope notices while importing.
struct NsysMessage {
    int64_t time_ns = 0;      // on the report's timeline (may be before its start)
    uint8_t time_source = 0;  // ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE: 1 target, 2 host
    uint8_t source = 0;       // ENUM_DIAGNOSTIC_SOURCE_TYPE: 1 injection, 2 daemon, 3 analysis
    uint8_t severity = 0;     // ENUM_DIAGNOSTIC_SEVERITY_LEVEL: 1 info, 2 warning, 3 error, 4 verbose
    int32_t process = -1;     // index into Report::processes, -1 for the session
    std::string text;
    // The nsys globalPid as recorded (DIAGNOSTIC_EVENT.globalPid, also for a session's message:
    // pid 0, or other values), kNoGlobalPid where none was.
    int64_t global_pid = kNoGlobalPid;
    static constexpr int64_t kNoGlobalPid = INT64_MIN;
};
const char* nsysMessageSeverityName(uint8_t severity);  // "info", "warning", "error", "verbose"
const char* nsysMessageSourceName(uint8_t source);      // "injection", "daemon", "analysis"
// The rows of `messages` in time order, those of the same time in the report's order (a report
// or an export may hold them in any order).
std::vector<size_t> nsysMessagesByTime(const std::vector<NsysMessage>& messages);

}  // namespace lanescope
