#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "importers/nsys/ReportBuilder.h"
#include "importers/nsysrep/VersionQuirks.h"

namespace lanescope::nsysrep {

// A CUDA memory usage event: a change of a process's CUDA memory in use on one device, for the
// counters and Report::cuda_memory_events built after all blocks are decoded. bytes > 0
// allocates, < 0 frees; `event` holds the rest, its process, GPU and name not yet resolved.
struct MemoryChange {
    int64_t time_ns = 0;
    int64_t global_pid = 0;
    int64_t device = 0;
    double bytes = 0;
    CudaMemoryEvent event;
    std::string name;  // a static variable's name, empty for none
};

// The events of a run of blocks, one chunk per export table, so that they are merged table by
// table in the order the SQLite importer reads the export (NVTX, CUDA API, OS runtime, kernels,
// memcpy, memset, sync, graph executions, CUDA event records, GPU and CPU page faults, CPU
// samples, CUDA graph events, Nsight's messages): the same lanes, threads and processes in the
// same order.
struct TableChunks {
    nsys::EventChunk nvtx, cuda_api, osrt, openmp, kernels, memcpy, memset, sync, graphs, cuda_events;
    nsys::EventChunk gpu_faults, cpu_faults;
    nsys::EventChunk samples;  // COMPOSITE_EVENTS (as instants) and SCHED_EVENTS (as rows)
    nsys::EventChunk graph_events, messages;
};

// A sample of generic-event counters (GPU metrics): event-block field 2, { 1 type id, 2 time in
// ns, 3 the type's fixed-layout record }, read through the index's type descriptors.
struct GenericEvent {
    uint64_t type_id = 0;
    int64_t time_ns = 0;
    std::string record;
};

// What one decoded block gives besides its events: in block order, merged in file order.
struct BlockExtras {
    uint64_t events = 0;  // events decoded, to check against the index's total
    std::vector<MemoryChange> memory;
    std::vector<GenericEvent> generic;
    std::vector<OverheadRange> overhead;                     // process holds the globalTid's pid until resolved
    std::vector<int64_t> overhead_tids;                      // the globalTid of each overhead range, 0 if none
    std::vector<std::pair<int64_t, std::string>> processes;  // globalPid, name
};

// Decodes the events of one inflated block (a varint length, then the block message
// `{ repeated 1 event; repeated 2 generic event }`) into `chunks` exactly as the SQLite importer
// reads the same rows of the export (importers/nsys/Read*.cpp): the same lanes, names, side
// tables and diagnostics. `offset` is the block's file offset, for errors. Throws
// MalformedProto for bytes that do not decode.
void decodeBlock(std::string_view block, uint64_t offset, const nsys::ReportBuilder& builder,
                 const VersionQuirks& quirks, TableChunks& chunks, BlockExtras& extras);

}  // namespace lanescope::nsysrep
