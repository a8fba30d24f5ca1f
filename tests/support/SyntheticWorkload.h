#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tests/support/Rng.h"
#include "tests/support/StringIdTable.h"
#include "tests/support/SyntheticRows.h"

namespace lanescope::bench {

// The NVTX domain id of "NCCL" in every process (NVTX_EVENTS.domainId; 0 is the default domain).
inline constexpr int64_t kNcclDomainId = 1;

// One process of the synthetic capture: one rank of a data-parallel job, driving one GPU.
struct SyntheticProcess {
    int64_t pid;
    int64_t global_pid;       // nsys GlobalId: (1 << 48) | pid << 24
    int64_t main_global_tid;  // the thread that creates the NCCL NVTX domain
    int64_t device_id;        // CUDA device id of its GPU
};

// One named CPU thread (a ThreadNames row).
struct SyntheticThread {
    int64_t global_tid;
    int64_t name_id;  // into StringIds
    int64_t priority;
};

// The StringIds ids of every name the workload writes, interned once (NVTX texts "step N"
// are unregistered and written as text).
struct WorkloadNames {
    explicit WorkloadNames(StringIdTable& strings);

    // CUDA API and OS runtime functions.
    int64_t launch_kernel, launch_kernel_ex, memcpy_async, memset_async, event_record, stream_wait_event,
        stream_synchronize;
    int64_t cond_wait, cond_timedwait, cond_signal, mutex_lock, read, poll;
    // NVTX ranges.
    int64_t data, forward, backward, optimizer, attention, mlp, load_batch, decode, collate, nccl_all_reduce;
    std::vector<int64_t> blocks;  // "block 0", "block 1", ...
    // Threads.
    int64_t main_thread, loader_thread, event_thread, watchdog_thread;
    // Kernels.
    KernelKind layer_norm, gemm, softmax, add, relu, gemm_dgrad, gemm_wgrad, bias_grad, softmax_grad, layer_norm_grad,
        all_reduce, adam_lerp, adam_sqrt;
};

// One rank of a data-parallel transformer training loop, simulated on its own CPU clocks and
// GPU streams. A step: the main thread's NVTX ranges step > data | forward > block > attention
// | mlp | backward > block > NCCL ncclAllReduce | optimizer, with a CUDA API call launching
// every kernel, memcpy and memset (same correlationId) onto the compute, copy or NCCL stream;
// a loader thread with NVTX and OS runtime calls; CUDA event and NCCL watchdog threads with
// OS runtime calls. Copyable, so that a step can be taken back.
class RankModel {
public:
    RankModel(const WorkloadNames& names, int rank, uint64_t seed);
    // Appends one training step that starts at `start` ns, numbered `index`.
    void step(int64_t index, int64_t start, RowBatch& out);
    // Appends `count` OS runtime poll calls on the CUDA event thread, after its last one.
    void pad(uint64_t count, RowBatch& out);
    // When the main thread has finished everything so far (ns).
    int64_t busyUntil() const { return main_.now; }
    SyntheticProcess process() const;
    std::vector<SyntheticThread> threads() const;

private:
    // One CPU thread: its clock (ns) and its open NVTX ranges, innermost last.
    struct CpuThread {
        int64_t global_tid;
        int64_t now;
        std::vector<NvtxRow> open;
    };
    // One CUDA stream: when its last queued work ends (ns).
    struct Stream {
        int64_t id;
        int64_t free_at;
    };

    void push(CpuThread& thread, NvtxRow range);
    void pop(CpuThread& thread, RowBatch& out);
    void range(int64_t textId, std::optional<int64_t> color = std::nullopt) {
        push(main_, {.text_id = textId, .color = color});
    }
    ApiRow call(int64_t nameId, int64_t minNs, int64_t maxNs, RowBatch& out, int64_t notBefore = 0,
                int64_t eventClass = 0);  // ENUM_NSYS_EVENT_CLASS: 0 = CUDA runtime
    int64_t schedule(const ApiRow& call, Stream& stream, int64_t durationNs);
    // Launches through cudaLaunchKernel, or through the driver's cuLaunchKernelEx as NCCL does.
    void launch(const KernelKind& kind, Stream& stream, RowBatch& out, bool viaDriver = false);
    void copy(int64_t bytes, int64_t copyKind, int64_t srcKind, int64_t dstKind, Stream& stream, RowBatch& out);
    void memset(int64_t bytes, Stream& stream, RowBatch& out);
    void waitFor(Stream& waiter, const Stream& on, RowBatch& out);
    void synchronize(const Stream& stream, RowBatch& out);
    void osrt(CpuThread& thread, int64_t nameId, int64_t durationNs, RowBatch& out);

    void forward(RowBatch& out);
    void backward(RowBatch& out);
    void allReduce(RowBatch& out);
    void loadBatch(int64_t start, RowBatch& out);
    void helperThreads(int64_t start, RowBatch& out);

    const WorkloadNames* names_;
    Rng rng_;
    int64_t pid_, global_pid_, device_;
    CpuThread main_, loader_, events_, watchdog_;
    Stream compute_, copy_, nccl_;
    int64_t next_correlation_ = 1;
    int64_t next_grid_ = 1;
};

// The whole job: every rank steps together, since gradients are all-reduced each step.
class TrainingWorkload {
public:
    static constexpr int kRanks = 2;

    TrainingWorkload(const WorkloadNames& names, uint64_t seed);
    // Appends the next step of every rank.
    void step(RowBatch& out);
    // Appends `count` filler events (OS runtime calls of rank 0) after everything so far.
    void pad(uint64_t count, RowBatch& out) { ranks_.front().pad(count, out); }
    std::vector<SyntheticProcess> processes() const;
    std::vector<SyntheticThread> threads() const;

private:
    Rng rng_;
    std::vector<RankModel> ranks_;
    int64_t next_step_ = 0;
};

}  // namespace lanescope::bench
