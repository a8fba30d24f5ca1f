#pragma once
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/Lane.h"
#include "model/Report.h"

namespace lanescope {

// How much a diagnostic matters to someone reading the report:
//   Info     the file is fine; Lanescope does not show this part of it (flow arrows, an event
//            category or phase it does not know)
//   Warning  the file has a problem: some events were skipped or changed (a range that never
//            ended, a time out of range)
//   Error    the file is damaged, or a whole table could not be read: much may be missing
enum class DiagnosticSeverity : uint8_t { Info, Warning, Error };
std::string_view severityName(DiagnosticSeverity severity);  // "info", "warning", "error"

// Every diagnostic an importer or the model can raise, declared once in DiagnosticKinds.cpp
// with its name, severity and explanation, in this order. The names are a contract (scripts
// read them from `lanescope-cli info --format json`): never rename one. A family has variable
// parts in its name, written <like_this> in its declared pattern; it is raised with the parts.
enum class Diag : uint16_t {
    // Any format
    TimestampOutOfRange,
    // Nsight Systems SQLite export
    TableLacksColumn,  // family: <table>_lacks_<column>
    NegativeDuration,
    StringIdMissing,
    KernelWithoutEnd,
    MemcpyWithoutEnd,
    MemsetWithoutEnd,
    SyncWithoutEnd,
    CudaApiWithoutEnd,
    OsrtWithoutEnd,
    NvtxRangeWithoutEnd,
    ProfilerOverheadWithoutEnd,
    NvtxUnsupportedEventType,
    MemcpyUnknownCopyKind,
    MemoryUsageUnknownOperation,
    GraphExecutionWithoutEnd,
    GpuPageFaultWithoutEnd,
    CudaEventRecordWithoutCall,
    // NVTX extended payloads (both Nsight Systems readers; model/NvtxPayloadPlacement.h)
    NvtxPayloadUnknownSchema,
    NvtxPayloadUnsupportedType,
    NvtxPayloadDamaged,
    NvtxPayloadSchemasDamaged,
    // Native .nsys-rep reader
    NsysRepUnknownEventType,
    NsysRepUnknownField,
    NsysRepCaptureSettingsDamaged,
    NsysRepVersionUnverified,
    NsysRepEventCountMismatch,
    NsysRepGpuMetricOutsideRecord,
    // PyTorch Kineto JSON
    JsonEventNotAnObject,
    JsonEventWithoutTs,
    JsonNegativeDuration,
    JsonUnmatchedBegin,
    JsonUnmatchedEnd,
    JsonUnknownCategory,   // family: json_unknown_category:<category>
    JsonUnsupportedPhase,  // family: json_unsupported_phase:<phase>
    JsonFwdbwdFlowsNotShown,
    JsonFlowIgnored,
    // Perfetto
    PerfettoTruncatedPacket,
    PerfettoCompressedPacketsDamaged,
    PerfettoZstdPacketsUnsupported,
    PerfettoPacketsDropped,
    PerfettoPacketWithoutIncrementalState,
    PerfettoInternedNameMissing,
    PerfettoUnmatchedEnd,
    PerfettoUnterminatedSlice,
    PerfettoNegativeDuration,
    PerfettoUntypedEventIgnored,
    PerfettoDebugAnnotationsIgnored,
    PerfettoExtraCounterWithoutTrack,
    PerfettoKindMixedOnTrack,
    PerfettoAnnotationInvalid,
    // Lanes (freezeLane): named after the lane's kind
    OsRuntimeOverlapWithoutNesting,
    CudaApiOverlapWithoutNesting,
    NvtxOverlapWithoutNesting,
    OsRuntimeDeeperThan254,
    CudaApiDeeperThan254,
    NvtxDeeperThan254,
    NvtxStartEndDeeperThan254,
    CudaHwDeeperThan254,
    CudaSyncDeeperThan254,
    NcclDeeperThan254,
    NvtxOnGpuDeeperThan254,
    MpiDeeperThan254,
    OpenMpDeeperThan254,
    CpuActivityDeeperThan254,
    // CPU side (nsys)
    SchedSwitchOutWithoutSwitchIn,
    SchedSwitchInWithoutSwitchOut,
    CallchainMissing,
    MpiWithoutEnd,
    OpenMpWithoutEnd,
};

// One declared diagnostic.
struct DiagnosticKind {
    Diag id;
    std::string_view name;  // the name, or a family's pattern ("<table>_lacks_<column>")
    DiagnosticSeverity severity;
    std::string_view explanation;  // one line for a user; a family's names its variable parts

    bool isFamily() const { return name.find('<') != std::string_view::npos; }
    // True when `diagnostic` is this one's name, or for a family a name of its pattern.
    bool matches(std::string_view diagnostic) const;
    // A family's variable parts in a name it matches ({"GPU_METRICS", "value"} for
    // GPU_METRICS_lacks_value); empty for a fixed name or one it does not match.
    std::vector<std::string_view> variableParts(std::string_view diagnostic) const;
};

// Every declared diagnostic, in the order of Diag.
std::span<const DiagnosticKind> declaredDiagnostics();
const DiagnosticKind& diagnosticKind(Diag id);

// The name a report's Diagnostics use: the declared one, or a family's pattern with its
// variable parts filled in order (JsonUnsupportedPhase with {"b"}: "json_unsupported_phase:b").
std::string diagnosticName(Diag id, std::initializer_list<std::string_view> parts = {});

// Counts n occurrences of a diagnostic. Importers and the model raise every diagnostic
// through these; tests/diagnostics_declared.cmake checks that no source indexes a
// Diagnostics map by hand.
void countDiagnostic(Diagnostics& diagnostics, Diag id, uint64_t n = 1);
void countDiagnostic(Diagnostics& diagnostics, Diag id, std::initializer_list<std::string_view> parts, uint64_t n = 1);
// Adds every count of `from` to `into` (per-chunk and per-worker diagnostics into a report's).
void mergeDiagnostics(Diagnostics& into, const Diagnostics& from);

// What a diagnostic name means, for `lanescope-cli info` and the viewer's Diagnostics panel.
struct DiagnosticDescription {
    DiagnosticSeverity severity = DiagnosticSeverity::Warning;
    std::string explanation;               // a family's with the name's variable parts filled in
    const DiagnosticKind* kind = nullptr;  // nullptr for a name no declaration matches

    bool declared() const { return kind != nullptr; }
};
// The exact declaration, else the family whose pattern matches with the most fixed text, else
// a warning with a generic explanation (a name from a newer Lanescope, say).
DiagnosticDescription describeDiagnostic(std::string_view name);

// The most severe of a report's diagnostics; nullopt when it has none.
std::optional<DiagnosticSeverity> worstSeverity(const Diagnostics& diagnostics);

// The diagnostics freezeLane raises for a lane of this kind: events that overlap without
// nesting (nullopt for kinds whose events may overlap freely), and nesting deeper than 254.
std::optional<Diag> overlapWithoutNestingOf(LaneKind kind);
Diag deeperThan254Of(LaneKind kind);

}  // namespace lanescope
