#pragma once
// What Lanescope's own Perfetto traces mean beyond Perfetto's format: each slice's event kind
// as its category, and its details as debug annotations under stable machine keys with
// numbers as numbers; a CPU sample is an instant of category "cpu_sample" whose call stack
// is the lanescope.stack annotation. The writer (exporters/perfetto) and the reader
// (importers/perfetto) both take the names from here, so they cannot drift apart.
//
// Why a folder of its own (formats/, library lanescope_perfetto_format): the exporter may not
// include importers/ and the importer may not include exporters/ (tests/layering.cmake), yet
// both must agree on these names and on the .proto subset beside this file. formats/ holds
// such wire-format definitions only: it includes model/ (for EventKind and LaneKind) and
// nothing above it. Header-only, constexpr: no code of its own to link.
//
// The keys are a contract with files already written: a key never changes meaning or value
// type; new keys may be added (a reader skips keys it does not know). Display annotations
// ("Grid" = "128 × 1 × 1", the Details panel's labels) may be written beside them for people
// reading the trace in ui.perfetto.dev, but a reader never looks at them.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "model/Lane.h"

namespace lanescope::perfetto_format {

// ---- Categories: the event kind of a slice (and of an instant, from its lane) ----

struct Category {
    EventKind kind;
    std::string_view name;
};
inline constexpr std::array<Category, 13> kCategories = {{{EventKind::OsRuntimeCall, "os_runtime"},
                                                          {EventKind::CudaApiCall, "cuda_api"},
                                                          {EventKind::NvtxRange, "nvtx"},
                                                          {EventKind::Kernel, "kernel"},
                                                          {EventKind::Memcpy, "memcpy"},
                                                          {EventKind::Memset, "memset"},
                                                          {EventKind::Sync, "cuda_sync"},
                                                          {EventKind::MpiCall, "mpi"},
                                                          {EventKind::OpenMpEvent, "openmp"},
                                                          {EventKind::GraphExecution, "cuda_graph"},
                                                          {EventKind::ProfilerOverhead, "profiler_overhead"},
                                                          {EventKind::ThreadState, "thread_state"},
                                                          {EventKind::CoreRun, "core_run"}}};

// The category of a CPU sample: an instant of a LaneKind::CpuSamples lane, which has no event
// kind of its own.
inline constexpr std::string_view kCpuSampleCategory = "cpu_sample";

// The category of an exported slice of `kind`: "os_runtime", "cuda_api", "nvtx", "kernel",
// "memcpy", "memset", "cuda_sync", "mpi", "openmp", "cuda_graph", "profiler_overhead",
// "thread_state" or "core_run". Also the string value of the lanescope.kind key.
constexpr std::string_view categoryOf(EventKind kind) {
    for (const Category& c : kCategories)
        if (c.kind == kind) return c.name;
    return "nvtx";
}

// The kind that one of those categories names; nullopt for any other category.
constexpr std::optional<EventKind> eventKindOfCategory(std::string_view category) {
    for (const Category& c : kCategories)
        if (c.name == category) return c.kind;
    return std::nullopt;
}

// The lane kind that holds events of `kind` (NVTX start/end ranges: NvtxStartEnd).
constexpr LaneKind laneKindOf(EventKind kind, bool nvtxStartEnd) {
    switch (kind) {
        case EventKind::OsRuntimeCall:
            return LaneKind::OsRuntime;
        case EventKind::CudaApiCall:
            return LaneKind::CudaApi;
        case EventKind::NvtxRange:
            return nvtxStartEnd ? LaneKind::NvtxStartEnd : LaneKind::Nvtx;
        case EventKind::Kernel:
        case EventKind::Memcpy:
        case EventKind::Memset:
        case EventKind::GraphExecution:
            return LaneKind::GpuStream;
        case EventKind::Sync:
            return LaneKind::CudaSync;
        case EventKind::MpiCall:
            return LaneKind::Mpi;
        case EventKind::OpenMpEvent:
            return LaneKind::OpenMp;
        case EventKind::ProfilerOverhead:
            return LaneKind::ProfilerOverhead;
        case EventKind::ThreadState:
            return LaneKind::ThreadState;
        case EventKind::CoreRun:
            return LaneKind::CpuCore;
        case EventKind::GpuPageFault:  // not exported
            break;
    }
    return LaneKind::Nvtx;
}

// The other way: the kind of the events a lane of `kind` holds (GPU streams: Kernel), whose
// category its instants carry so that a lane holding only instants comes back as the same
// kind of lane. CPU samples hold none: their instants carry kCpuSampleCategory
// (instantCategoryOf).
constexpr EventKind eventKindHeldBy(LaneKind kind) {
    switch (kind) {
        case LaneKind::OsRuntime:
            return EventKind::OsRuntimeCall;
        case LaneKind::CudaApi:
            return EventKind::CudaApiCall;
        case LaneKind::GpuStream:
            return EventKind::Kernel;
        case LaneKind::CudaSync:
            return EventKind::Sync;
        case LaneKind::Mpi:
            return EventKind::MpiCall;
        case LaneKind::OpenMp:
            return EventKind::OpenMpEvent;
        case LaneKind::ThreadState:
            return EventKind::ThreadState;
        case LaneKind::CpuCore:
            return EventKind::CoreRun;
        default:
            return EventKind::NvtxRange;
    }
}

// The category an instant of a lane of `kind` carries: kCpuSampleCategory for a CPU sample,
// else that of the events the lane holds.
constexpr std::string_view instantCategoryOf(LaneKind kind) {
    return kind == LaneKind::CpuSamples ? kCpuSampleCategory : categoryOf(eventKindHeldBy(kind));
}

// The kind of lane an instant of `category` goes to (instantCategoryOf the other way); nullopt
// for any other category.
constexpr std::optional<LaneKind> laneKindOfInstantCategory(std::string_view category) {
    if (category == kCpuSampleCategory) return LaneKind::CpuSamples;
    if (const std::optional<EventKind> kind = eventKindOfCategory(category)) return laneKindOf(*kind, false);
    return std::nullopt;
}

// ---- Machine keys: a slice's side-table fields as debug annotations ----

// Which DebugAnnotation value field a key's value travels in.
enum class ValueType : uint8_t {
    Uint,    // uint_value (a reader also takes a non-negative int_value)
    String,  // string_value (a reader also takes an interned string_value_iid)
    Bool,    // bool_value
    Int,     // int_value (a reader also takes a uint_value up to INT64_MAX)
    // array_values, one DebugAnnotation per frame of a call stack, innermost first; each a
    // dict_entries of two strings named kFrameFunction and kFrameModule (writers intern
    // the names and values: name_iid, string_value_iid)
    Frames,
};

// The names of a frame's two entries in a Frames value.
inline constexpr std::string_view kFrameFunction = "function";  // the function (symbol) name
inline constexpr std::string_view kFrameModule = "module";      // the module (library) path

// A frame's entry, by its name; nullopt for any other name.
enum class FrameField : uint8_t { Function, Module };
constexpr std::optional<FrameField> frameFieldOfName(std::string_view name) {
    if (name == kFrameFunction) return FrameField::Function;
    if (name == kFrameModule) return FrameField::Module;
    return std::nullopt;
}

enum class Key : uint8_t {
    Kind,           // string: the slice's event kind, as its category names it (categoryOf)
    CorrelationId,  // uint: CUDA correlation id (API calls, kernels, memcpy, memset, sync, graphs)
    // Kernel launch configuration (model/SideTables.h KernelConfig)
    GridX,
    GridY,
    GridZ,
    BlockX,
    BlockY,
    BlockZ,
    RegistersPerThread,
    StaticSharedBytes,
    DynamicSharedBytes,
    LocalBytesPerThread,
    SharedExecutedBytes,  // uint: the SM's shared memory for the launch (nsys sharedMemoryExecuted); absent where not
                          // recorded
    LaunchType,           // uint: ENUM_CUDA_KERNEL_LAUNCH_TYPE (1 regular, 2/3 cooperative)
    ShortName,            // string: the kernel's short name
    MangledName,          // string: the kernel's symbol as compiled; absent where not recorded
    LocalMemoryTotal,     // uint: bytes of local memory the context reserved; absent where not recorded
    CacheConfig,          // uint: ENUM_CUDA_FUNC_CACHE_CONFIG; absent where not recorded
    SharedLimitConfig,    // uint: ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG; absent where not recorded
    // Memcpy and memset
    Bytes,        // uint: bytes moved or set
    CopyKind,     // uint: ENUM_CUDA_MEMCPY_OPER (1 host-to-device, 2 device-to-host, ...)
    SrcMemKind,   // uint: ENUM_CUDA_MEM_KIND of a memcpy's source (0 pageable, 1 pinned, 2 device, ...)
    DstMemKind,   // uint: ENUM_CUDA_MEM_KIND of a memcpy's destination
    MemsetValue,  // uint: the byte value a memset writes
    MemKind,      // uint: ENUM_CUDA_MEM_KIND of a memset's memory
    // Sync
    SyncType,  // uint: ENUM_CUPTI_SYNC_TYPE (1 event, 2 stream wait, 3 stream, 4 context)
    // NVTX ranges
    NvtxDomain,    // string: the domain's name; absent for the default domain
    NvtxColor,     // uint: 0xAARRGGBB; absent for the default colour
    NvtxCategory,  // uint: the NVTX category; absent for 0
    NvtxStartEnd,  // bool: true for a start/end range, false for push/pop
    // CUDA graph executions
    GraphId,      // uint: the graph's id
    GraphExecId,  // uint: the executable graph's id
    // Thread states
    ThreadState,  // uint: ThreadRunState (0 running, 1 blocked, 2 preempted, 3 unknown)
    Cpu,          // uint: the CPU core the thread ran on (running), or the one it left
    // Core runs: the thread that ran, as its thread track's descriptor names it
    Pid,  // int: the thread's process id
    Tid,  // int: the thread id
    // CPU samples (instants of category kCpuSampleCategory)
    Stack,  // frames: the sampled call stack, innermost frame first; absent when none was recorded
};
inline constexpr size_t kKeyCount = static_cast<size_t>(Key::Stack) + 1;

struct KeySpec {
    Key key;
    std::string_view name;
    ValueType type;
};
// Indexed by Key.
inline constexpr std::array<KeySpec, kKeyCount> kKeys = {{
    {Key::Kind, "lanescope.kind", ValueType::String},
    {Key::CorrelationId, "lanescope.correlation_id", ValueType::Uint},
    {Key::GridX, "lanescope.grid_x", ValueType::Uint},
    {Key::GridY, "lanescope.grid_y", ValueType::Uint},
    {Key::GridZ, "lanescope.grid_z", ValueType::Uint},
    {Key::BlockX, "lanescope.block_x", ValueType::Uint},
    {Key::BlockY, "lanescope.block_y", ValueType::Uint},
    {Key::BlockZ, "lanescope.block_z", ValueType::Uint},
    {Key::RegistersPerThread, "lanescope.registers_per_thread", ValueType::Uint},
    {Key::StaticSharedBytes, "lanescope.static_shared_bytes", ValueType::Uint},
    {Key::DynamicSharedBytes, "lanescope.dynamic_shared_bytes", ValueType::Uint},
    {Key::LocalBytesPerThread, "lanescope.local_bytes_per_thread", ValueType::Uint},
    {Key::SharedExecutedBytes, "lanescope.shared_executed_bytes", ValueType::Uint},
    {Key::LaunchType, "lanescope.launch_type", ValueType::Uint},
    {Key::ShortName, "lanescope.short_name", ValueType::String},
    {Key::MangledName, "lanescope.mangled_name", ValueType::String},
    {Key::LocalMemoryTotal, "lanescope.local_memory_total", ValueType::Uint},
    {Key::CacheConfig, "lanescope.cache_config", ValueType::Uint},
    {Key::SharedLimitConfig, "lanescope.shared_memory_limit_config", ValueType::Uint},
    {Key::Bytes, "lanescope.bytes", ValueType::Uint},
    {Key::CopyKind, "lanescope.copy_kind", ValueType::Uint},
    {Key::SrcMemKind, "lanescope.src_mem_kind", ValueType::Uint},
    {Key::DstMemKind, "lanescope.dst_mem_kind", ValueType::Uint},
    {Key::MemsetValue, "lanescope.memset_value", ValueType::Uint},
    {Key::MemKind, "lanescope.mem_kind", ValueType::Uint},
    {Key::SyncType, "lanescope.sync_type", ValueType::Uint},
    {Key::NvtxDomain, "lanescope.nvtx.domain", ValueType::String},
    {Key::NvtxColor, "lanescope.nvtx.color", ValueType::Uint},
    {Key::NvtxCategory, "lanescope.nvtx.category", ValueType::Uint},
    {Key::NvtxStartEnd, "lanescope.nvtx.start_end", ValueType::Bool},
    {Key::GraphId, "lanescope.graph_id", ValueType::Uint},
    {Key::GraphExecId, "lanescope.graph_exec_id", ValueType::Uint},
    {Key::ThreadState, "lanescope.thread_state", ValueType::Uint},
    {Key::Cpu, "lanescope.cpu", ValueType::Uint},
    {Key::Pid, "lanescope.pid", ValueType::Int},
    {Key::Tid, "lanescope.tid", ValueType::Int},
    {Key::Stack, "lanescope.stack", ValueType::Frames},
}};

// Every machine key starts with this; a reader can skip any other annotation at once.
inline constexpr std::string_view kKeyPrefix = "lanescope.";

constexpr const KeySpec& spec(Key key) { return kKeys[static_cast<size_t>(key)]; }
constexpr std::string_view keyName(Key key) { return spec(key).name; }

// The key an annotation name is; nullopt for display labels and other producers' names.
constexpr std::optional<Key> keyOfName(std::string_view name) {
    if (!name.starts_with(kKeyPrefix)) return std::nullopt;
    for (const KeySpec& k : kKeys)
        if (k.name == name) return k.key;
    return std::nullopt;
}

// The table is in Key order, so spec(key) is a lookup; checked here once.
constexpr bool keysInOrder() {
    for (size_t i = 0; i < kKeys.size(); ++i)
        if (static_cast<size_t>(kKeys[i].key) != i) return false;
    return true;
}
static_assert(keysInOrder(), "kKeys must list the keys in Key order");

}  // namespace lanescope::perfetto_format
