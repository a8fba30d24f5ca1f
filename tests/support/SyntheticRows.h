#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lanescope::bench {

// Rows of the nsys export tables that the synthetic workload produces, one struct per table.
// All times are integer nanoseconds since the session start (the nsys export timeline), with
// end >= start. Ids are nsys ids: globalTid = globalPid | tid, string ids index StringIds.

// Launch attributes of a kernel, as CUPTI_ACTIVITY_KIND_KERNEL stores them (sizes in bytes).
struct KernelLaunch {
    int64_t grid[3];
    int64_t block[3];
    int64_t registers_per_thread;
    int64_t static_shared_bytes;
    int64_t dynamic_shared_bytes;
    int64_t local_memory_total;
    int64_t cache_config;  // ENUM_CUDA_FUNC_CACHE_CONFIG
    int64_t shared_memory_executed;
};

// One kind of kernel: its names as nsys stores them, its launch, and the range its durations
// are drawn from uniformly, [min, max] ns.
struct KernelType {
    const char* demangled;
    const char* short_name;
    const char* mangled;
    KernelLaunch launch;
    struct {
        int64_t min, max;
    } duration_ns;
};

// A kernel type with its names resolved to StringIds ids.
struct KernelKind {
    const KernelType* type;
    int64_t demangled_id;
    int64_t short_id;
    int64_t mangled_id;
};

// NVTX_EVENTS: a push/pop range (eventType 59). Exactly one of text / text_id names it.
struct NvtxRow {
    int64_t start = 0, end = 0;
    int64_t global_tid = 0;
    std::optional<std::string> text = {};  // an unregistered string
    std::optional<int64_t> text_id = {};   // a registered string, into StringIds
    int64_t domain_id = 0;                 // 0 = default domain
    std::optional<int64_t> color = {};     // ARGB, e.g. 0xFF76B900
};

// CUPTI_ACTIVITY_KIND_RUNTIME: one CUDA runtime or driver API call on a CPU thread.
struct ApiRow {
    int64_t start, end;
    int64_t event_class;  // ENUM_NSYS_EVENT_CLASS: 0 = CUDA runtime, 1 = CUDA driver
    int64_t global_tid;
    int64_t correlation_id;  // unique within the process; GPU work it launched carries it too
    int64_t name_id;
};

// Where GPU work ran: the CUDA device and stream of the process that launched it.
struct GpuPlace {
    int64_t device_id;
    int64_t stream_id;
    int64_t global_pid;
};

// CUPTI_ACTIVITY_KIND_KERNEL: one kernel execution.
struct KernelRow {
    int64_t start, end;
    GpuPlace place;
    int64_t correlation_id;
    int64_t grid_id;  // unique per process, in launch order
    const KernelKind* kind;
};

// CUPTI_ACTIVITY_KIND_MEMCPY: one copy. Kinds use ENUM_CUDA_MEMCPY_OPER / ENUM_CUDA_MEM_KIND.
struct MemcpyRow {
    int64_t start, end;
    GpuPlace place;
    int64_t correlation_id;
    int64_t bytes;
    int64_t copy_kind;  // 1 = host to device, 2 = device to host
    int64_t src_kind;   // 0 = pageable, 1 = pinned, 2 = device
    int64_t dst_kind;
};

// CUPTI_ACTIVITY_KIND_MEMSET: one memset of device memory.
struct MemsetRow {
    int64_t start, end;
    GpuPlace place;
    int64_t correlation_id;
    int64_t bytes;
    int64_t value;
};

// OSRT_API: one OS runtime library call (eventClass 27).
struct OsrtRow {
    int64_t start, end;
    int64_t global_tid;
    int64_t name_id;
};

// The rows of one training step (or of the closing padding), per table, in the order the
// workload produced them; sortByStart() puts each table in (start ascending, end descending)
// order, parents before children, as nsys writes them.
struct RowBatch {
    std::vector<NvtxRow> nvtx;
    std::vector<ApiRow> api;
    std::vector<KernelRow> kernels;
    std::vector<MemcpyRow> memcpys;
    std::vector<MemsetRow> memsets;
    std::vector<OsrtRow> osrt;

    // Interval events in the batch: every row of every table.
    uint64_t size() const {
        return nvtx.size() + api.size() + kernels.size() + memcpys.size() + memsets.size() + osrt.size();
    }
    void sortByStart();
};

}  // namespace lanescope::bench
