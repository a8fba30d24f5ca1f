#pragma once
#include <filesystem>
#include <optional>
#include <stop_token>
#include <unordered_map>

#include "importers/Importer.h"
#include "importers/SqliteDb.h"
#include "importers/nsys/ReportBuilder.h"

namespace lanescope::nsys {

// One callchain of an export: its stack, and its frames' details, innermost first
// (CallchainStacks::details from `first_detail`, one per frame of the stack).
struct Callchain {
    uint32_t stack = kNoStack;
    uint32_t first_detail = 0;
};

// The export's callchain tables by their id (readCallchains), for the readers of the events that
// refer to them.
struct CallchainStacks {
    std::unordered_map<int64_t, Callchain> sampling;  // SAMPLING_CALLCHAINS.id = COMPOSITE_EVENTS.id
    std::unordered_map<int64_t, Callchain> cuda;      // CUDA_CALLCHAINS.id = CUPTI_ACTIVITY_KIND_RUNTIME.callchainId
    std::unordered_map<int64_t, Callchain> osrt;      // OSRT_CALLCHAINS.id = OSRT_API.callchainId
    std::vector<FrameDetail> details;                 // every chain's, chain after chain
};

// Appends the frame details of `chain` (as many as its stack's frames) to `out`; returns where
// they begin in it.
uint32_t appendChainDetails(const CallchainStacks& chains, const CallStacks& stacks, const Callchain& chain,
                            std::vector<FrameDetail>& out);

// Everything a table reader needs while one nsys export is imported.
struct ImportContext {
    const std::filesystem::path& file;
    const SqliteDb& db;
    ReportBuilder& builder;
    Report& report;
    unsigned threads;
    std::stop_token stop;
    ProgressSink& progress;
    CallchainStacks callchains;
};

// The name of a graph execution box: "CUDA graph 3 · exec 4" (both readers of Nsight reports).
std::string graphExecutionName(const GraphExecutionInfo& graph);
// The name of a group of GPU page faults by its access type: "GPU page faults (write)".
std::string gpuPageFaultName(uint8_t accessType);

// Each reader reads its tables when present (absent tables mean no such data) and returns
// an error only for damage that makes the report untrustworthy (or cancellation).
std::optional<ImportError> readCallchains(ImportContext& ctx);          // first: the stacks the others refer to
std::optional<ImportError> readNvtxPayloadSchemas(ImportContext& ctx);  // before readNvtx: the schemas of its payloads
std::optional<ImportError> readNvtx(ImportContext& ctx);
std::optional<ImportError> readCpuCalls(ImportContext& ctx);     // CUDA runtime/driver, OS runtime, MPI, OpenMP
std::optional<ImportError> readGpuActivity(ImportContext& ctx);  // kernels, memcpy, memset, sync, graphs, event records
std::optional<ImportError> readUnifiedMemory(ImportContext& ctx);     // CPU and GPU page faults
std::optional<ImportError> readGraphApiEvents(ImportContext& ctx);    // CUDA_GRAPH_EVENTS, CUDA_GRAPH_NODE_EVENTS
std::optional<ImportError> readNsysMessages(ImportContext& ctx);      // DIAGNOSTIC_EVENT
std::optional<ImportError> readCpuSamples(ImportContext& ctx);        // CPU IP samples, context switches
std::optional<ImportError> readCounters(ImportContext& ctx);          // GPU metrics, CUDA memory usage
std::optional<ImportError> readProfilerOverhead(ImportContext& ctx);  // PROFILER_OVERHEAD; after the others

}  // namespace lanescope::nsys
