#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tests/support/Rng.h"

namespace lanescope::bench {

// A CUDA kernel of the synthetic model: its name, launch configuration and typical duration.
struct KernelShape {
    const char* name;
    uint32_t grid[3], block[3];
    uint32_t registers, shared_bytes;
    int64_t dur_ns;
};

// An ATen op as the profiler records it with record_shapes: name and the args it writes.
struct OpShape {
    const char* name;
    const char* inputs;  // the "Concrete Inputs", "Input type", "Input Strides", "Input Dims" text
};

// What a synthetic trace event is: its phase, category and the args it carries.
enum class TraceKind : uint8_t {
    CpuOp,          // X cpu_op
    Python,         // X python_function
    Annotation,     // X user_annotation (ProfilerStep#N, data loading, optimizer, nccl:*)
    Runtime,        // X cuda_runtime (cudaLaunchKernel, cudaMemcpyAsync, cudaMemsetAsync)
    Driver,         // X cuda_driver (cuLaunchKernelEx of NCCL)
    Kernel,         // X kernel
    Memcpy,         // X gpu_memcpy
    Memset,         // X gpu_memset
    GpuAnnotation,  // X gpu_user_annotation
    LaunchFlow,     // s ac2g, at the launch
    KernelFlow,     // f ac2g, at the GPU work
    ForwardFlow,    // s fwdbwd, at a forward op
    BackwardFlow,   // f fwdbwd, at its backward op
    MemoryInstant,  // i cpu_instant_event "[memory]"
    Counter,        // C, the caching allocator's totals
};

// One event of a synthetic trace, in the order it is written (parents before children).
// Times are integer ns on the profiler's clock.
struct TraceEvent {
    TraceKind kind = TraceKind::CpuOp;
    int64_t tid = 0;  // CPU thread id; for GPU work the stream
    int64_t start_ns = 0, dur_ns = 0;
    uint64_t id = 0;          // correlation id (API calls, GPU work, ac2g), flow id (fwdbwd)
    uint64_t external = 0;    // the op's "External id"
    int64_t value = 0;        // bytes (memcpy, memset, memory, counter), the Python id of python_function
    std::string_view name{};  // static text, or text of the workload that lives until the next step
    const OpShape* op = nullptr;
    const KernelShape* kernel = nullptr;
};

// One rank of a DDP transformer training loop under torch.profiler, step by step: the main
// thread's ProfilerStep#N > data loading (an HtoD copy) | python_function > nn.Module >
// cpu_op forward ops launching kernels | optimizer (foreach kernels, a memset), the autograd
// thread's backward ops (linked to their forward ops by fwdbwd flows) with NCCL all-reduces of
// gradient buckets on their own stream; each launch linked to its GPU work by a correlation id
// and an ac2g flow; allocator counters and memory instants.
class KinetoWorkload {
public:
    static constexpr int64_t kPid = 2417, kMainTid = 2417, kAutogradTid = 2475;
    static constexpr int64_t kDevice = 0, kComputeStream = 7, kNcclStream = 24;

    explicit KinetoWorkload(uint64_t seed);
    // The events of the next step, parents before their children.
    const std::vector<TraceEvent>& nextStep();

private:
    int64_t api(TraceKind kind, std::string_view name, int64_t tid, int64_t& cpu);
    void launch(const KernelShape& kernel, int64_t tid, int64_t& cpu, uint64_t external,
                int64_t stream = kComputeStream);
    void copy(int64_t tid, int64_t& cpu, uint64_t external, int64_t bytes);
    void memset(int64_t tid, int64_t& cpu, uint64_t external, int64_t bytes);
    void flow(TraceKind kind, int64_t tid, int64_t at, uint64_t id);
    size_t open(TraceKind kind, std::string_view name, int64_t tid, int64_t start, const OpShape* op = nullptr);
    void close(size_t index, int64_t end);
    // The forward op and the backward op of kForward[index] / kBackward[index] (in the .cpp).
    void forwardOp(size_t index, int64_t& cpu);
    void backwardOp(size_t index, uint64_t flowId, int64_t& cpu);
    void allReduce(int64_t& cpu, int bucket);

    Rng rng_;
    std::vector<TraceEvent> events_;
    std::vector<std::string> names_;  // the step's dynamic names; reserved so that views stay valid
    uint64_t step_ = 0, correlation_ = 1, external_ = 1, flow_ = 1;
    int64_t python_ = 1;
    int64_t cpu_ = 0;                         // the main thread's clock, ns
    int64_t computeFree_ = 0, ncclFree_ = 0;  // when each stream is next idle, ns
    int64_t allocated_ = 6ll << 30;           // allocator bytes in use
};

}  // namespace lanescope::bench
