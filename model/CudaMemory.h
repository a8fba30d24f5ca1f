#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/Find.h"
#include "model/Report.h"

namespace lanescope {

// Whether `counter` is the running sum of a process's CUDA memory usage events on one GPU, the
// "CUDA memory usage" counter the nsys importers make from Report::cuda_memory_events.
bool isCudaMemoryCounter(const Report& report, const Counter& counter);

// The rows of Report::cuda_memory_events of the counter's process and GPU at exactly `time_ns`
// (the changes behind the counter's sample at that time), in time order. O(log n + k).
std::vector<uint32_t> cudaMemoryEventsAt(const Report& report, const Counter& counter, int64_t time_ns);

// The CUDA API call that made the allocation or free: the call of its process with its
// correlation id whose span holds its time (nsys records the event inside the call). nullopt
// for a module's static variable (correlation id 0) or a call the report does not hold (made
// before tracing started). Looks at the calls of the process's CUDA API lanes around that
// time: O(log n) a lane.
std::optional<EventRef> cudaMemoryCall(const Report& report, const CudaMemoryEvent& event);

// One line saying what the event did: "Allocation of 20,971,520 B (20.97 MB), Device, at
// 0x7f4d2a000000", and
// ", <name>" for a static variable.
std::string describeCudaMemoryEvent(const Report& report, const CudaMemoryEvent& event);

}  // namespace lanescope
