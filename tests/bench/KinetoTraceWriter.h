#pragma once
#include <cstdint>
#include <filesystem>

namespace lanescope::bench {

// What writeKinetoTrace wrote: complete (X) events by category, and the other events.
struct KinetoTraceCounts {
    uint64_t cpu_op = 0, python = 0, annotation = 0, cuda_api = 0, kernels = 0, memcpy = 0, memset = 0,
             gpu_annotation = 0;
    uint64_t flows = 0, instants = 0, counters = 0, metadata = 0;
    uint64_t complete() const {
        return cpu_op + python + annotation + cuda_api + kernels + memcpy + memset + gpu_annotation;
    }
};

// Writes a synthetic PyTorch profiler trace (Kineto Chrome-trace JSON as torch.profiler writes
// it with record_shapes and with_stack; gzip when the name ends in .gz) of one DDP rank
// (KinetoWorkload) with exactly `events` complete (X) events, then the flows, instants,
// counters and M metadata that come with them. Throws std::runtime_error when it cannot write.
KinetoTraceCounts writeKinetoTrace(const std::filesystem::path& out, uint64_t events);

}  // namespace lanescope::bench
