#pragma once
#include <cstdint>
#include <filesystem>
#include <string>

#include "model/Report.h"

namespace lanescope {

// What writePerfetto wrote.
struct PerfettoWriteStats {
    uint64_t packets = 0, tracks = 0, slices = 0, instants = 0, counter_samples = 0, flows = 0;
    uint64_t negative_times_clamped = 0;
};

// How writePerfetto writes.
struct PerfettoWriteOptions {
    // Also write each slice's details as the Details panel shows them ("Grid" = "128 × 1 × 1",
    // "Bytes" = "16,777,216 B (16.78 MB)"), for people reading the trace in ui.perfetto.dev.
    // Readers never use them: the machine keys carry the same fields.
    bool display_annotations = true;
};

// Writes any report as a Perfetto protobuf trace (Trace of TracePackets, one packet
// sequence, interned event names):
// - a process track per process, a thread track per thread, a parentless "GPU <id>: <name>"
//   track per GPU;
// - one track per lane under its thread (CPU lanes: also its thread states and CPU samples),
//   its GPU (GPU lanes) or its process; a CPU core's lane is a parentless "CPU <n>" track;
//   a lane whose events overlap without nesting (GPU streams running kernels concurrently,
//   NVTX start/end ranges) gets one track per depth instead, "<lane> [row d]";
//   NVTX GPU projections (derived), unified memory and CUDA event records are not written;
// - slices as SLICE_BEGIN/SLICE_END in nesting order, instants as INSTANT (a CPU sample: its
//   call stack as the lanescope.stack annotation, frames and names interned);
// - counters as counter tracks with COUNTER events (double values);
// - CUDA correlations as flows from the API call to the GPU operations it launched;
// - each slice's event kind as its category, and its side-table fields (launch
//   configuration, bytes, copy kind, correlation id, NVTX domain/colour/category, a thread
//   state and its core, the thread a core ran...) as debug
//   annotations under the machine keys of formats/perfetto/PerfettoConventions.h, numbers as
//   uint values (the format: docs/perfetto-export.md), plus the display annotations of
//   `options`.
// Times are the report's own nanoseconds (negative ones are clamped to 0).
// Returns false with `error` set when the file cannot be written.
bool writePerfetto(const Report& report, const std::filesystem::path& out, std::string& error,
                   PerfettoWriteStats* stats = nullptr, const PerfettoWriteOptions& options = {});

}  // namespace lanescope
