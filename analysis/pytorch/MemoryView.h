#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/StatsTable.h"
#include "model/Report.h"

namespace lanescope {

// One device's figures in the memory view. Sizes in bytes, times in ns on the report's timeline.
struct MemoryDevice {
    uint8_t device_type = kPytorchDeviceCpu;  // as PytorchMemoryEvent
    int16_t device_id = -1;
    int64_t peak_allocated = 0, peak_allocated_ns = 0;  // the largest Total Allocated, first reached then
    int64_t peak_reserved = 0, peak_reserved_ns = 0;    // the largest Total Reserved, first reached then
    int64_t allocations = 0, frees = 0;                 // its events of positive and of negative bytes
};

// One allocation (an event of positive bytes) in the memory view. Times in ns on the report's
// timeline.
inline constexpr uint32_t kNoOperator = UINT32_MAX;
struct MemoryAllocation {
    uint32_t event = 0;                  // index into Report::pytorch_memory
    uint32_t operator_id = kNoOperator;  // the operator's name (into Report::strings), if any
    int64_t freed_ns = -1;               // the time of its free; -1 when none is recorded
};

// The PyTorch "memory" view (TensorBoard's Memory view) from Report::pytorch_memory, the
// allocations and frees a trace made with profile_memory=True records (docs/analyses.md,
// "PyTorch memory").
struct MemoryView {
    std::vector<MemoryDevice> devices;          // by device type, then id
    std::vector<MemoryAllocation> allocations;  // in time order (that of their events)
    // Why both are empty, for the caller to print; empty when the trace records memory.
    std::string missing;
};

MemoryView pytorchMemory(const Report& report);

// The devices as a table, "pytorch_memory_devices": Device, Peak Allocated (B), Peak Allocated
// At (ns), Peak Reserved (B), Peak Reserved At (ns), Allocations, Frees; "CUDA 0", "CPU".
StatsTable memoryDevicesTable(const MemoryView& view);
// The allocations as a table, "pytorch_memory_allocations": Device, Address (hex), Bytes,
// Allocated At (ns), Freed At (ns), Lifetime (ns), Operator. Freed At and Lifetime are "" when
// no free is recorded; Operator "" when no cpu_op on the allocating thread contains the
// allocation.
// Only the first `maxRows` allocations when given (a viewer shows the first rows).
StatsTable memoryAllocationsTable(const Report& report, const MemoryView& view, size_t maxRows = SIZE_MAX);

}  // namespace lanescope
