#pragma once
#include <cstddef>
#include <vector>

#include "model/Report.h"

namespace lanescope {

// True when the report holds GPU work of any kind: kernels, copies, memsets, graph executions
// or synchronization on a GPU lane.
bool reportHoldsGpuWork(const Report& report);

// For a report without GPU work, the Nsight Systems messages that say why, as indexes into
// Report::nsys_messages in the report's order: the warnings and errors that name CUDA, CUPTI or
// the GPU ("No CUDA events collected. Does the process use CUDA?"), leaving out the "Not all …
// might have been collected" that closes every capture when another says more. Empty when the report holds
// GPU work or Nsight left no such message (a capture that did not trace CUDA: nothing to explain).
std::vector<size_t> messagesExplainingNoGpuWork(const Report& report);

}  // namespace lanescope
