#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "model/Report.h"

// The model file on disk (docs/report-cache.md): a header, a table of sections, then the
// sections, each starting at a multiple of 64 bytes. The header's checksum covers the table, and
// each entry of the table the bytes of its section; the zeros between sections are covered by
// none (never read). Numbers and structs are in the writing machine's byte order and layout,
// which the header records (byte order mark, layout fingerprint): a reader whose build differs
// rejects the file rather than convert it.

namespace lanescope::cache {

inline constexpr char kModelMagic[16] = "LANESCOPE-MODEL";  // 15 characters and a NUL
// Raised with any change to what a model file holds or how (sections, records, their order).
inline constexpr uint32_t kModelFormatVersion = 24;
inline constexpr uint32_t kByteOrderMark = 0x01020304;
inline constexpr uint64_t kSectionAlignment = 64;

// The first bytes of the file. Each field is checked on its own; the checksum covers the section
// table, whose entries hold the hash of each section.
struct ModelFileHeader {
    char magic[16] = {};
    uint32_t format_version = 0;
    uint32_t byte_order = 0;
    char app_version[32] = {};  // LANESCOPE_VERSION, NUL-padded
    uint64_t layout_fingerprint = 0;
    uint64_t file_bytes = 0;  // the whole file
    uint64_t checksum = 0;    // FastHash of the section table
    uint32_t section_count = 0;
    uint32_t reserved = 0;
};
static_assert(sizeof(ModelFileHeader) == 88 && std::has_unique_object_representations_v<ModelFileHeader>);

// Where one section is: bytes [offset, offset + bytes) of the file, and their FastHash.
struct SectionEntry {
    uint64_t offset = 0;
    uint64_t bytes = 0;
    uint64_t hash = 0;
    uint64_t reserved = 0;
};
static_assert(sizeof(SectionEntry) == 32 && std::has_unique_object_representations_v<SectionEntry>);

// The sections, in file order. A table (a vector of the report) is one section of its raw
// elements; the columns of every lane (counter) are one section each, the lanes' (counters')
// runs end to end in lane order; a list of strings is two sections, their lengths (uint32_t)
// and their characters end to end.
enum class Section : uint32_t {
    Meta,  // one MetaRecord
    MetaStringLengths,
    MetaStringChars,  // format, producer, version, reader, nsys_version, source_path
    PoolLengths,
    PoolChars,  // Report::strings in id order
    Lanes,      // LaneRecord per lane
    EventStart,
    EventDuration,
    EventLongDuration,
    EventName,
    EventPayload,
    EventKind,
    EventDepth,
    DepthOrder,
    DepthBegin,
    InstantTime,
    InstantName,
    InstantPayload,
    Counters,  // CounterRecord per counter
    CounterTime,
    CounterValue,
    Messages,  // MessageRecord per NsysMessage
    MessageTextLengths,
    MessageTextChars,
    DiagnosticNameLengths,
    DiagnosticNameChars,
    DiagnosticCounts,  // uint64_t per diagnostic, in name order
    Processes,
    Threads,
    Gpus,
    RecordedNames,
    Kernels,
    KernelConfigs,
    Memcpys,
    Memsets,
    Syncs,
    Nvtx,
    GraphExecutions,
    CudaEvents,
    GpuPageFaults,
    CpuPageFaults,
    Migrations,
    PeerCopies,
    KernelGraphNodes,
    GraphApiEvents,
    ProcessStreams,
    CaptureOptions,
    GenericEventSources,
    GenericEventTypes,
    GenericEventFields,
    CudaApiResults,
    UnusualSamples,
    NvtxOtherStarts,
    NvtxDomains,
    NvtxNamings,
    NvtxTies,
    ProfilerOverhead,
    StackFrameFunction,
    StackFrameModule,
    StackNodeFrame,
    StackNodeParent,
    Backtraces,
    BacktraceFrameDetails,
    SampleFrameDetails,
    FileOrderOsrt,
    FileOrderCudaApi,
    FileOrderCpuSamples,
    FileOrderSched,
    PytorchMemory,
    CudaMemoryEvents,
    MachineGpus,
    SystemProperties,
    CudaDevices,
    CudaContexts,
    CudaStreams,
    CollectiveArgs,
    NvtxPayloadSchemas,
    NvtxPayloadEntries,
    NvtxPayloadEnums,
    NvtxPayloadEnumValues,
    NvtxPayloadTypeInfo,
    NvtxPayloadRegisteredStrings,
    NvtxPayloadBytes,
    NvtxPayloadRows,
    Count
};
inline constexpr size_t kSectionCount = size_t(Section::Count);
// The header and the section table; the first section starts at the next multiple of 64.
inline constexpr uint64_t kModelTableEnd = sizeof(ModelFileHeader) + kSectionCount * sizeof(SectionEntry);
// "lanes.events.start_ns": the section's name in messages.
std::string_view sectionName(Section section);

// Metadata numbers.
struct MetaRecord {
    int64_t start_utc_ns = 0;
    int64_t utc_minus_local_ns = 0;
    int64_t session_clock_start_ns = 0;
    int64_t session_clock_stop_ns = 0;
    int64_t begin_ns = 0;
    int64_t end_ns = 0;
    int32_t rank = -1;
    int32_t cpu_utilization_counter = -1;
    uint32_t string_table_size = 0;  // StringPool::tableSize(): the first strings are the file's table
    uint32_t unused = 0;
};
// The strings of the metadata, in file order (Metadata or const Metadata).
template <typename M>
auto metaStrings(M& m) {
    return std::array{&m.format, &m.producer, &m.version, &m.reader, &m.nsys_version, &m.source_path};
}

// The columns of a lane, in the order forEachLaneColumn visits them.
inline constexpr size_t kLaneColumns = 12;
// One lane: its fields and the length of each of its columns.
struct LaneRecord {
    uint64_t column_sizes[kLaneColumns] = {};
    int64_t stream_id = -1;
    int64_t context_id = -1;
    uint32_t name_id = 0;
    int32_t process = -1;
    int32_t thread = -1;
    int32_t gpu = -1;
    int32_t cpu = -1;
    int32_t recorded_gpu = -1;
    uint8_t kind = 0;  // LaneKind
    uint8_t depth_count = 0;
    uint8_t unused[6] = {};
};

// The columns of a counter, in the order forEachCounterColumn visits them.
inline constexpr size_t kCounterColumns = 2;
// One counter: its fields and the length of each of its columns.
struct CounterRecord {
    uint64_t column_sizes[kCounterColumns] = {};
    uint32_t name_id = 0;
    uint32_t unit_id = 0;
    int32_t gpu = -1;
    int32_t process = -1;
    uint8_t derived = 0;
    uint8_t unused[7] = {};
};

// One NsysMessage but its text (MessageText* sections).
struct MessageRecord {
    int64_t time_ns = 0;
    int32_t process = -1;
    uint8_t time_source = 0;
    uint8_t source = 0;
    uint8_t severity = 0;
    uint8_t unused = 0;
    int64_t global_pid = 0;
};

static_assert(std::has_unique_object_representations_v<MetaRecord> &&
              std::has_unique_object_representations_v<LaneRecord> &&
              std::has_unique_object_representations_v<CounterRecord> &&
              std::has_unique_object_representations_v<MessageRecord>);

// The structured bindings below and in ModelWriter.cpp name every member of the structs they
// take apart, so adding a member to one breaks the build until the model file stores it.

// Every column of a lane with its section (Lane or const Lane): the writer and the reader walk
// the same list.
template <typename L, typename Visit>
void forEachLaneColumn(L& lane, Visit&& visit) {
    auto& [start_ns, duration_ns, long_durations, name_id, payload, kind, depth] = lane.events;
    auto& [time_ns, instant_name_id, instant_payload] = lane.instants;
    visit(Section::EventStart, start_ns);
    visit(Section::EventDuration, duration_ns);
    visit(Section::EventLongDuration, long_durations);
    visit(Section::EventName, name_id);
    visit(Section::EventPayload, payload);
    visit(Section::EventKind, kind);
    visit(Section::EventDepth, depth);
    visit(Section::DepthOrder, lane.depth_order);
    visit(Section::DepthBegin, lane.depth_begin);
    visit(Section::InstantTime, time_ns);
    visit(Section::InstantName, instant_name_id);
    visit(Section::InstantPayload, instant_payload);
}

template <typename C, typename Visit>
void forEachCounterColumn(C& counter, Visit&& visit) {
    visit(Section::CounterTime, counter.time_ns);
    visit(Section::CounterValue, counter.value);
}

// Every table of the report stored as one section of raw elements (Report or const Report).
template <typename R, typename Visit>
void forEachTable(R& r, Visit&& visit) {
    auto& [frame_function, frame_module, node_frame, node_parent] = r.stacks;
    auto& [schemas, entries, enums, enum_values, type_info, registered_strings, payload_bytes, payload_rows] =
        r.nvtx_payloads;
    visit(Section::Processes, r.processes);
    visit(Section::Threads, r.threads);
    visit(Section::Gpus, r.gpus);
    visit(Section::RecordedNames, r.recorded_names);
    visit(Section::Kernels, r.kernels);
    visit(Section::KernelConfigs, r.kernel_configs);
    visit(Section::Memcpys, r.memcpys);
    visit(Section::Memsets, r.memsets);
    visit(Section::Syncs, r.syncs);
    visit(Section::Nvtx, r.nvtx);
    visit(Section::GraphExecutions, r.graph_executions);
    visit(Section::CudaEvents, r.cuda_events);
    visit(Section::GpuPageFaults, r.gpu_page_faults);
    visit(Section::CpuPageFaults, r.cpu_page_faults);
    visit(Section::Migrations, r.migrations);
    visit(Section::PeerCopies, r.peer_copies);
    visit(Section::KernelGraphNodes, r.kernel_graph_nodes);
    visit(Section::GraphApiEvents, r.graph_api_events);
    visit(Section::ProcessStreams, r.process_streams);
    visit(Section::CaptureOptions, r.capture_options);
    visit(Section::GenericEventSources, r.generic_event_sources);
    visit(Section::GenericEventTypes, r.generic_event_types);
    visit(Section::GenericEventFields, r.generic_event_fields);
    visit(Section::CudaApiResults, r.cuda_api_results);
    visit(Section::UnusualSamples, r.unusual_samples);
    visit(Section::NvtxOtherStarts, r.nvtx_other_starts_ns);
    visit(Section::NvtxDomains, r.nvtx_domains);
    visit(Section::NvtxNamings, r.nvtx_namings);
    visit(Section::NvtxTies, r.nvtx_ties);
    visit(Section::ProfilerOverhead, r.profiler_overhead);
    visit(Section::StackFrameFunction, frame_function);
    visit(Section::StackFrameModule, frame_module);
    visit(Section::StackNodeFrame, node_frame);
    visit(Section::StackNodeParent, node_parent);
    visit(Section::Backtraces, r.backtraces);
    visit(Section::BacktraceFrameDetails, r.backtrace_frame_details);
    visit(Section::SampleFrameDetails, r.sample_frame_details);
    auto& [osrt, cuda_api, cpu_samples, sched] = r.file_order;
    visit(Section::FileOrderOsrt, osrt);
    visit(Section::FileOrderCudaApi, cuda_api);
    visit(Section::FileOrderCpuSamples, cpu_samples);
    visit(Section::FileOrderSched, sched);
    visit(Section::PytorchMemory, r.pytorch_memory);
    visit(Section::CudaMemoryEvents, r.cuda_memory_events);
    visit(Section::MachineGpus, r.machine_gpus);
    visit(Section::SystemProperties, r.system_properties);
    visit(Section::CudaDevices, r.cuda_devices);
    visit(Section::CudaContexts, r.cuda_contexts);
    visit(Section::CudaStreams, r.cuda_streams);
    visit(Section::CollectiveArgs, r.collective_args);
    visit(Section::NvtxPayloadSchemas, schemas);
    visit(Section::NvtxPayloadEntries, entries);
    visit(Section::NvtxPayloadEnums, enums);
    visit(Section::NvtxPayloadEnumValues, enum_values);
    visit(Section::NvtxPayloadTypeInfo, type_info);
    visit(Section::NvtxPayloadRegisteredStrings, registered_strings);
    visit(Section::NvtxPayloadBytes, payload_bytes);
    visit(Section::NvtxPayloadRows, payload_rows);
}

// A hash of the sizes, alignments and member places of every struct stored raw (RawLayout.h)
// and of the records above: two builds agree on it only when they lay out the file alike.
uint64_t layoutFingerprint();

}  // namespace lanescope::cache
