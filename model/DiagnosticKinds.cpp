#include "model/DiagnosticKinds.h"

#include <array>
#include <stdexcept>
#include <vector>

namespace lanescope {
namespace {

using enum DiagnosticSeverity;

// The declarations, in the order of Diag (checked below). Severity: Info when the file is
// fine and Lanescope does not show that part of it, Warning when events were skipped or
// changed, Error when the file is damaged or a whole table is unread.
constexpr DiagnosticKind kDeclared[] = {
    // Any format
    {Diag::TimestampOutOfRange, "timestamp_out_of_range", Warning,
     "Events with a time more than 146 years from the report's start (a damaged value); they are skipped."},

    // Nsight Systems SQLite export
    {Diag::TableLacksColumn, "<table>_lacks_<column>", Error,
     "The table <table> lacks its required column <column> (an export Lanescope does not know); none of "
     "that table's events are shown."},
    {Diag::NegativeDuration, "negative_duration", Warning, "Events that end before they start; they are skipped."},
    {Diag::StringIdMissing, "string_id_missing", Warning,
     "Events whose name id is missing from the StringIds table; they are shown as \"[unknown name]\"."},
    {Diag::KernelWithoutEnd, "kernel_without_end", Warning,
     "CUDA kernels without a start or end time; they are not shown."},
    {Diag::MemcpyWithoutEnd, "memcpy_without_end", Warning,
     "CUDA memory copies without a start or end time; they are not shown."},
    {Diag::MemsetWithoutEnd, "memset_without_end", Warning,
     "CUDA memsets without a start or end time; they are not shown."},
    {Diag::SyncWithoutEnd, "sync_without_end", Warning,
     "CUDA synchronization events without a start or end time; they are not shown."},
    {Diag::CudaApiWithoutEnd, "cuda_api_without_end", Warning,
     "CUDA API calls without a start or end time; they are not shown."},
    {Diag::OsrtWithoutEnd, "osrt_without_end", Warning,
     "OS runtime calls without a start or end time; they are not shown."},
    {Diag::NvtxRangeWithoutEnd, "nvtx_range_without_end", Warning,
     "NVTX ranges that were pushed or started but never ended (often still open when the capture "
     "stopped); they are not shown."},
    {Diag::ProfilerOverheadWithoutEnd, "profiler_overhead_without_end", Warning,
     "Profiler overhead ranges without a start or end time; the GPU gaps rule does not see them."},
    {Diag::NvtxUnsupportedEventType, "nvtx_unsupported_event_type", Info,
     "NVTX events of a type Lanescope does not read (neither a range, a mark nor a name); they are not "
     "shown."},
    {Diag::MemcpyUnknownCopyKind, "memcpy_unknown_copy_kind", Info,
     "CUDA memory copies of a copy kind Lanescope does not know; they are shown as \"Unknown\" copies."},
    {Diag::MemoryUsageUnknownOperation, "memory_usage_unknown_operation", Warning,
     "CUDA memory usage events that are neither an allocation nor a free; the memory counters leave "
     "them out."},
    {Diag::GraphExecutionWithoutEnd, "graph_execution_without_end", Warning,
     "CUDA graph executions without a start or end time; they are not shown."},
    {Diag::GpuPageFaultWithoutEnd, "gpu_page_fault_without_end", Warning,
     "Unified-memory GPU page faults without a start or end time; they are not shown."},
    {Diag::CudaEventRecordWithoutCall, "cuda_event_record_without_call", Info,
     "CUDA event records whose cudaEventRecord call the report does not hold (the record itself has no "
     "time); they are not shown."},

    // NVTX extended payloads
    {Diag::NvtxPayloadUnknownSchema, "nvtx_payload_unknown_schema", Info,
     "NVTX extended payloads (such as NCCL's) whose schema the report does not hold (registered before the "
     "capture started, or in another domain); their fields are shown as raw bytes in hex."},
    {Diag::NvtxPayloadUnsupportedType, "nvtx_payload_unsupported_type", Info,
     "NVTX extended payloads whose schema has an entry of a type Lanescope does not decode (a union, or a "
     "type newer than Lanescope); they are shown as raw bytes in hex."},
    {Diag::NvtxPayloadDamaged, "nvtx_payload_damaged", Warning,
     "NVTX extended payloads whose bytes do not fit their schema (shorter than it says, an array longer "
     "than the bytes left, schemas nesting themselves); they are shown as raw bytes in hex."},
    {Diag::NvtxPayloadSchemasDamaged, "nvtx_payload_schemas_damaged", Warning,
     "The report's NVTX extended-payload schemas are damaged and were not read; every payload is shown as "
     "raw bytes in hex."},

    // Native .nsys-rep reader
    {Diag::NsysRepUnknownEventType, "nsys_rep_unknown_event_type", Warning,
     "Events of a type this version of Lanescope does not read from .nsys-rep files; they are skipped."},
    {Diag::NsysRepUnknownField, "nsys_rep_unknown_field", Info,
     "Event fields this version of Lanescope does not read from .nsys-rep files; they are skipped, the "
     "events are shown."},
    {Diag::NsysRepCaptureSettingsDamaged, "nsys_rep_capture_settings_damaged", Warning,
     "The report's capture settings (its 'Analysis Options Data' section) are damaged and were not read; "
     "META_DATA_CAPTURE is empty."},
    {Diag::NsysRepVersionUnverified, "nsys_rep_version_unverified", Warning,
     "The report comes from an Nsight Systems version newer than those Lanescope was verified with; "
     "some events may be missing or misread."},
    {Diag::NsysRepEventCountMismatch, "nsys_rep_event_count_mismatch", Warning,
     "The report holds another number of events than its index says; some may be missing."},
    {Diag::NsysRepGpuMetricOutsideRecord, "nsys_rep_gpu_metric_outside_record", Warning,
     "GPU metric values whose declared place lies outside their sample's record; they are skipped."},

    // PyTorch Kineto JSON
    {Diag::JsonEventNotAnObject, "json_event_not_an_object", Warning,
     "Entries of traceEvents that are not JSON objects; they are skipped."},
    {Diag::JsonEventWithoutTs, "json_event_without_ts", Warning,
     "Events without a timestamp (\"ts\"); they are skipped."},
    {Diag::JsonNegativeDuration, "json_negative_duration", Warning,
     "Events with a negative duration, or whose end (ph E) comes before their begin; they are shown with "
     "zero length."},
    {Diag::JsonUnmatchedBegin, "json_unmatched_begin", Warning,
     "Begin events (ph B) that never end; they are not shown."},
    {Diag::JsonUnmatchedEnd, "json_unmatched_end", Warning,
     "End events (ph E) with no begin on their thread; they are skipped."},
    {Diag::JsonUnknownCategory, "json_unknown_category:<category>", Info,
     "Events of the category <category>, which Lanescope does not know; they are not shown (PyTorch's "
     "profiler puts its own span in Trace)."},
    {Diag::JsonUnsupportedPhase, "json_unsupported_phase:<phase>", Info,
     "Events of the phase (ph) <phase>, which Lanescope does not read (such as async or object events); "
     "they are not shown."},
    {Diag::JsonFwdbwdFlowsNotShown, "json_fwdbwd_flows_not_shown", Info,
     "PyTorch's forward-to-backward flow arrows (fwdbwd); Lanescope does not draw them."},
    {Diag::JsonFlowIgnored, "json_flow_ignored", Info,
     "Flow events (ph s, t, f) other than CUDA launches (ac2g) and fwdbwd flows; they are not shown."},

    // Perfetto
    {Diag::PerfettoTruncatedPacket, "perfetto_truncated_packet", Error,
     "The trace ends in the middle of a packet (a cut-off file); what comes before it is shown."},
    {Diag::PerfettoCompressedPacketsDamaged, "perfetto_compressed_packets_damaged", Error,
     "Compressed groups of packets that do not inflate or parse; the events in them are missing."},
    {Diag::PerfettoZstdPacketsUnsupported, "perfetto_zstd_packets_unsupported", Warning,
     "Groups of packets compressed with Zstandard, which Lanescope does not read; the events in them "
     "are missing."},
    {Diag::PerfettoPacketsDropped, "perfetto_packets_dropped", Warning,
     "The tracer lost packets of a sequence; events may be missing there."},
    {Diag::PerfettoPacketWithoutIncrementalState, "perfetto_packet_without_incremental_state", Warning,
     "Packets that need interned names or defaults their sequence never sent or lost; they are skipped."},
    {Diag::PerfettoInternedNameMissing, "perfetto_interned_name_missing", Warning,
     "Events whose interned name was never defined; they are shown without a name."},
    {Diag::PerfettoUnmatchedEnd, "perfetto_unmatched_end", Warning,
     "Slice ends with no open slice on their track; they are skipped."},
    {Diag::PerfettoUnterminatedSlice, "perfetto_unterminated_slice", Warning,
     "Slices that begin but never end; they are not shown."},
    {Diag::PerfettoNegativeDuration, "perfetto_negative_duration", Warning,
     "Slices that end before they begin; they are shown with zero length."},
    {Diag::PerfettoUntypedEventIgnored, "perfetto_untyped_event_ignored", Info,
     "Track events without a type (legacy events), which Lanescope does not read; they are not shown."},
    {Diag::PerfettoDebugAnnotationsIgnored, "perfetto_debug_annotations_ignored", Info,
     "Debug annotations (arguments) of events that Lanescope does not show in Details."},
    {Diag::PerfettoExtraCounterWithoutTrack, "perfetto_extra_counter_without_track", Warning,
     "Extra counter values with no counter track declared for them; they are skipped."},
    {Diag::PerfettoKindMixedOnTrack, "perfetto_kind_mixed_on_track", Info,
     "Events of another kind than their track's (a kernel among NVTX ranges, say); they are shown as "
     "plain ranges without their details."},
    {Diag::PerfettoAnnotationInvalid, "perfetto_annotation_invalid", Warning,
     "Lanescope annotations of an exported slice with a value of the wrong type or out of range; that "
     "detail keeps its default."},

    // Lanes
    {Diag::OsRuntimeOverlapWithoutNesting, "os_runtime_overlap_without_nesting", Warning,
     "OS runtime calls of one thread that overlap without nesting; they are drawn one level deeper."},
    {Diag::CudaApiOverlapWithoutNesting, "cuda_api_overlap_without_nesting", Warning,
     "CUDA API calls of one thread that overlap without nesting; they are drawn one level deeper."},
    {Diag::NvtxOverlapWithoutNesting, "nvtx_overlap_without_nesting", Warning,
     "NVTX push/pop ranges of one thread that overlap without nesting; they are drawn one level deeper."},
    {Diag::OsRuntimeDeeperThan254, "os_runtime_deeper_than_254", Warning,
     "OS runtime calls nested more than 254 deep; the deeper ones are drawn at depth 254."},
    {Diag::CudaApiDeeperThan254, "cuda_api_deeper_than_254", Warning,
     "CUDA API calls nested more than 254 deep; the deeper ones are drawn at depth 254."},
    {Diag::NvtxDeeperThan254, "nvtx_deeper_than_254", Warning,
     "NVTX ranges nested more than 254 deep; the deeper ones are drawn at depth 254."},
    {Diag::NvtxStartEndDeeperThan254, "nvtx_start/end_deeper_than_254", Warning,
     "NVTX start/end ranges overlapping more than 254 deep on one row; the deeper ones are drawn at "
     "depth 254."},
    {Diag::CudaHwDeeperThan254, "cuda_hw_deeper_than_254", Warning,
     "GPU work overlapping more than 254 deep on one stream; the deeper ones are drawn at depth 254."},
    {Diag::CudaSyncDeeperThan254, "cuda_sync_deeper_than_254", Warning,
     "CUDA synchronization events overlapping more than 254 deep on one row; the deeper ones are drawn "
     "at depth 254."},
    {Diag::NcclDeeperThan254, "nccl_deeper_than_254", Warning,
     "NCCL events overlapping more than 254 deep on one GPU; the deeper ones are drawn at depth 254."},
    {Diag::NvtxOnGpuDeeperThan254, "nvtx_on_gpu_deeper_than_254", Warning,
     "NVTX ranges projected on a GPU overlapping more than 254 deep; the deeper ones are drawn at depth "
     "254."},
    {Diag::MpiDeeperThan254, "mpi_deeper_than_254", Warning,
     "MPI calls of one thread nested more than 254 deep; the deeper ones are drawn at depth 254."},
    {Diag::OpenMpDeeperThan254, "openmp_deeper_than_254", Warning,
     "OpenMP regions of one thread nested more than 254 deep; the deeper ones are drawn at depth 254."},
    {Diag::CpuActivityDeeperThan254, "cpu_activity_deeper_than_254", Warning,
     "Thread states, core runs or CPU samples overlapping more than 254 deep on one row; the deeper ones "
     "are drawn at depth 254."},
    {Diag::SchedSwitchOutWithoutSwitchIn, "sched_switch_out_without_switch_in", Info,
     "Context switches taking a thread off a core that no recorded switch put it on (it was running when "
     "the capture began); its running time before them is not shown."},
    {Diag::SchedSwitchInWithoutSwitchOut, "sched_switch_in_without_switch_out", Info,
     "Threads put on a core and never switched off before the capture ended; they are shown running "
     "until their last recorded event on that core."},
    {Diag::CallchainMissing, "callchain_missing", Warning,
     "CPU samples or calls that name a call stack the report does not hold; they are shown without one."},
    {Diag::MpiWithoutEnd, "mpi_without_end", Warning, "MPI calls with no end time; they are not shown."},
    {Diag::OpenMpWithoutEnd, "openmp_without_end", Warning,
     "OpenMP regions, tasks or waits with no end time; they are not shown."},
};

constexpr bool inOrderOfDiag() {
    for (size_t i = 0; i < std::size(kDeclared); ++i)
        if (static_cast<size_t>(kDeclared[i].id) != i) return false;
    return std::size(kDeclared) == static_cast<size_t>(Diag::OpenMpWithoutEnd) + 1;
}
static_assert(inOrderOfDiag(), "kDeclared lists every Diag once, in the enum's order");

// A family's pattern as its fixed pieces around the <variable> parts: "<table>_lacks_<column>"
// is {"", "_lacks_", ""}.
std::vector<std::string_view> fixedPieces(std::string_view pattern) {
    std::vector<std::string_view> pieces;
    size_t at = 0;
    while (true) {
        const size_t open = pattern.find('<', at);
        if (open == std::string_view::npos) break;
        pieces.push_back(pattern.substr(at, open - at));
        const size_t close = pattern.find('>', open);
        at = close == std::string_view::npos ? pattern.size() : close + 1;
    }
    pieces.push_back(pattern.substr(at));
    return pieces;
}

// The length of the fixed text of a family; the longest wins when several match.
size_t fixedLength(std::string_view pattern) {
    size_t n = 0;
    for (std::string_view piece : fixedPieces(pattern)) n += piece.size();
    return n;
}

constexpr std::string_view kUnknownExplanation =
    "A problem found while importing that this version of Lanescope does not describe.";

}  // namespace

std::string_view severityName(DiagnosticSeverity severity) {
    switch (severity) {
        case Info:
            return "info";
        case Warning:
            return "warning";
        case Error:
            return "error";
    }
    return "warning";
}

bool DiagnosticKind::matches(std::string_view diagnostic) const {
    if (!isFamily()) return diagnostic == name;
    return !variableParts(diagnostic).empty();
}

std::vector<std::string_view> DiagnosticKind::variableParts(std::string_view diagnostic) const {
    if (!isFamily()) return {};
    // The fixed pieces in order, each middle one at its first occurrence: the first a prefix,
    // the last a suffix. Variable parts may be empty (json_unsupported_phase: for an event
    // without "ph").
    const std::vector<std::string_view> pieces = fixedPieces(name);
    if (!diagnostic.starts_with(pieces.front())) return {};
    std::vector<std::string_view> parts;
    size_t at = pieces.front().size();
    for (size_t i = 1; i + 1 < pieces.size(); ++i) {
        const size_t found = diagnostic.find(pieces[i], at);
        if (found == std::string_view::npos) return {};
        parts.push_back(diagnostic.substr(at, found - at));
        at = found + pieces[i].size();
    }
    if (diagnostic.size() < at + pieces.back().size() || !diagnostic.ends_with(pieces.back())) return {};
    parts.push_back(diagnostic.substr(at, diagnostic.size() - pieces.back().size() - at));
    return parts;
}

std::span<const DiagnosticKind> declaredDiagnostics() { return kDeclared; }

const DiagnosticKind& diagnosticKind(Diag id) { return kDeclared[static_cast<size_t>(id)]; }

std::string diagnosticName(Diag id, std::initializer_list<std::string_view> parts) {
    const DiagnosticKind& kind = diagnosticKind(id);
    if (!kind.isFamily()) return std::string(kind.name);
    const std::vector<std::string_view> pieces = fixedPieces(kind.name);
    if (parts.size() + 1 != pieces.size())
        throw std::logic_error("diagnostic " + std::string(kind.name) + " needs " + std::to_string(pieces.size() - 1) +
                               " variable parts");
    std::string name(pieces.front());
    size_t i = 1;
    for (std::string_view part : parts) {
        name += part;
        name += pieces[i++];
    }
    return name;
}

void countDiagnostic(Diagnostics& diagnostics, Diag id, uint64_t n) { diagnostics[diagnosticName(id)] += n; }

void countDiagnostic(Diagnostics& diagnostics, Diag id, std::initializer_list<std::string_view> parts, uint64_t n) {
    diagnostics[diagnosticName(id, parts)] += n;
}

void mergeDiagnostics(Diagnostics& into, const Diagnostics& from) {
    for (const auto& [name, count] : from) into[name] += count;
}

DiagnosticDescription describeDiagnostic(std::string_view name) {
    const DiagnosticKind* best = nullptr;
    for (const DiagnosticKind& kind : kDeclared) {
        if (!kind.isFamily()) {
            if (kind.name == name) return {kind.severity, std::string(kind.explanation), &kind};
        } else if (kind.matches(name) && (!best || fixedLength(kind.name) > fixedLength(best->name))) {
            best = &kind;
        }
    }
    if (!best) return {Warning, std::string(kUnknownExplanation), nullptr};
    // "The table <table> lacks ..." -> "The table GPU_METRICS lacks ...".
    std::string explanation(best->explanation);
    const std::vector<std::string_view> parts = best->variableParts(name);
    size_t open = best->name.find('<');
    for (size_t i = 0; i < parts.size() && open != std::string_view::npos; ++i) {
        const size_t close = best->name.find('>', open);
        const std::string_view placeholder = best->name.substr(open, close - open + 1);
        const std::string value = parts[i].empty() ? "\"\"" : std::string(parts[i]);
        for (size_t at = explanation.find(placeholder); at != std::string::npos;
             at = explanation.find(placeholder, at + value.size()))
            explanation.replace(at, placeholder.size(), value);
        open = best->name.find('<', close);
    }
    return {best->severity, std::move(explanation), best};
}

std::optional<DiagnosticSeverity> worstSeverity(const Diagnostics& diagnostics) {
    std::optional<DiagnosticSeverity> worst;
    for (const auto& [name, count] : diagnostics) {
        const DiagnosticSeverity s = describeDiagnostic(name).severity;
        if (!worst || s > *worst) worst = s;
    }
    return worst;
}

std::optional<Diag> overlapWithoutNestingOf(LaneKind kind) {
    // Calls and push/pop ranges of one thread must nest; GPU work and start/end ranges may
    // overlap freely and simply use more depths.
    switch (kind) {
        case LaneKind::OsRuntime:
            return Diag::OsRuntimeOverlapWithoutNesting;
        case LaneKind::CudaApi:
            return Diag::CudaApiOverlapWithoutNesting;
        case LaneKind::Nvtx:
            return Diag::NvtxOverlapWithoutNesting;
        default:
            return std::nullopt;
    }
}

Diag deeperThan254Of(LaneKind kind) {
    switch (kind) {
        case LaneKind::OsRuntime:
            return Diag::OsRuntimeDeeperThan254;
        case LaneKind::CudaApi:
            return Diag::CudaApiDeeperThan254;
        case LaneKind::Nvtx:
            return Diag::NvtxDeeperThan254;
        case LaneKind::NvtxStartEnd:
            return Diag::NvtxStartEndDeeperThan254;
        case LaneKind::GpuStream:
            return Diag::CudaHwDeeperThan254;
        case LaneKind::CudaSync:
            return Diag::CudaSyncDeeperThan254;
        case LaneKind::Nccl:
            return Diag::NcclDeeperThan254;
        case LaneKind::NvtxGpuProjection:
            return Diag::NvtxOnGpuDeeperThan254;
        case LaneKind::Mpi:
            return Diag::MpiDeeperThan254;
        case LaneKind::OpenMp:
            return Diag::OpenMpDeeperThan254;
        case LaneKind::CpuSamples:
        case LaneKind::ThreadState:
        case LaneKind::CpuCore:
        case LaneKind::ProfilerOverhead:
        case LaneKind::UmCpuPageFaults:
            return Diag::CpuActivityDeeperThan254;
        case LaneKind::UnifiedMemory:
            return Diag::CudaHwDeeperThan254;
    }
    return Diag::NvtxDeeperThan254;
}

}  // namespace lanescope
