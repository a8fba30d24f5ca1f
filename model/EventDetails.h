#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "model/Find.h"
#include "model/Report.h"

namespace lanescope {

// One row of a details panel: a label and its value as display text (UTF-8).
struct DetailField {
    std::string label;
    std::string value;
};

// Every field of one interval event, in display order:
//   Name, Kind, Start ("123456789 ns", on the report's timeline), Duration (human units),
//   Lane, Process ("name [pid]"), then Thread ("name [tid]") for CPU lanes or GPU and Stream
//   for GPU lanes, Depth; then per kind:
//   Kernel: Grid, Block ("x × y × z"), Registers/thread, Static shared memory, Dynamic shared
//           memory, Local memory/thread, Shared memory executed (nsys reports), Theoretical
//           occupancy (where the report describes the GPU: model/Occupancy.h, "50 % (32 of 64
//           warps per SM, 2 blocks; limited by registers)"), Launch type, Short name, then where recorded (PyTorch
//           traces) Blocks/SM, Warps/SM, Est. achieved occupancy ("50 %"); Correlation id.
//   Memcpy: Bytes, Throughput, Kind, Source memory, Destination memory, Correlation id.
//   Memset: Bytes, Throughput, Value, Memory kind, Correlation id.
//           In a graph traced per node: Graph node id and the node's CPU-side events.
//   CUDA graph: Graph id, Graph exec id, Correlation id, the graph's CPU-side events
//           (creation, instantiation, cloning) each as "<name>" = "<start> ns, thread <tid>".
//   GPU page faults: Page faults, Address, Access type.
//   CUDA API: Correlation id.  Sync: Type, Correlation id, Event sync id (when it waited for one).
//   NVTX range: Domain ("default" for none), Color ("#RRGGBB", only when set), Category (only
//           when nonzero), Style ("push/pop" or "start/end").
// Fields whose side-table row is missing are left out. An invalid ref gives no fields.
std::vector<DetailField> eventDetails(const Report& report, EventRef ref);

// One frame of a call stack for people: the function and the module (library path).
struct StackFrameText {
    std::string function;
    std::string module;
};
// The backtrace of a CUDA API or OS runtime call, kNoStack when it has none.
uint32_t backtraceOf(const Report& report, EventRef ref);
// One instant event (a CPU sample, an NVTX marker) of a lane.
struct InstantRef {
    size_t lane = 0;
    size_t index = 0;
};
// Every field of one instant, in display order: Name ("CPU sample" for samples), Kind (its
// lane's kind), Time ("123456789 ns", on the report's timeline), Lane, Process, Thread (CPU
// lanes); for a CUDA event record Stream, Event id, Event sync id, Correlation id; for a CPU
// page fault Address, CPU instruction, Source (when resolved); for a PyTorch "[memory]" marker
// its Report::pytorch_memory event: Device, Bytes ("-512 B (a free)" for a free), Address,
// Total allocated, Total reserved. An invalid ref gives no fields.
std::vector<DetailField> instantDetails(const Report& report, InstantRef ref);
// The stack of a CPU sample (an instant of a CpuSamples lane), kNoStack for anything else.
uint32_t sampleStackOf(const Report& report, InstantRef ref);
// The frames of a stack, innermost first; none for kNoStack.
std::vector<StackFrameText> stackFrames(const Report& report, uint32_t stack);

// "Kernel", "Memcpy", "Memset", "CUDA API", "NVTX range", "OS runtime", "Sync".
const char* eventKindLabel(EventKind kind);
// "Regular", "Cooperative (single device)", "Cooperative (multi-device)", else "Unknown".
const char* launchTypeLabel(uint8_t type);
// "0x7FA9CAD01000".
std::string hexAddress(uint64_t address);
// A unified-memory access (ENUM_CUDA_UNIF_MEM_ACCESS_TYPE): "Read", "Write", "Atomic", "Prefetch", else "Unknown".
const char* umAccessTypeLabel(uint8_t type);
// "Event sync", "Stream wait sync", "Stream sync", "Context sync", else "Unknown".
const char* syncTypeLabel(uint8_t type);

// A duration in the largest unit that keeps it >= 1, three decimals: "850 ns", "12.345 µs",
// "1.235 ms", "2.000 s" (rounded half up; negative values get a leading '-').
std::string detailDuration(int64_t ns);
// A launch dimension: "256 × 1 × 1".
std::string detailTriple(uint64_t x, uint64_t y, uint64_t z);
// An integer with thousands separators: "16,777,216".
std::string detailThousands(uint64_t value);
// Bytes exactly, plus decimal units from 1 kB: "60 B", "16,777,216 B (16.78 MB)".
std::string detailBytes(uint64_t bytes);
// Decimal bytes per second of `bytes` moved in `ns`: "12.345 GB/s", below 1 GB/s in MB/s
// ("40.000 MB/s"); "n/a" for a zero duration.
std::string detailThroughput(uint64_t bytes, int64_t ns);

}  // namespace lanescope
