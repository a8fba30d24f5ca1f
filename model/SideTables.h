#pragma once
#include <cstdint>
#include <tuple>

namespace lanescope {

// Per-kind details of interval events, referenced by IntervalColumns::payload.
// Each table is in import order (not time order); rows are never shared between events
// except NvtxInfo rows, which are deduplicated when they carry no per-event value.

// How a kernel was launched: shared by every launch with the same configuration, so the
// table holds one row per distinct configuration. Sizes in bytes.
struct KernelConfig {
    uint32_t grid[3] = {0, 0, 0};
    uint16_t block[3] = {0, 0, 0};
    uint16_t registers_per_thread = 0;
    uint32_t static_shared_bytes = 0;
    uint32_t dynamic_shared_bytes = 0;
    uint32_t local_bytes_per_thread = 0;
    uint32_t short_name_id = 0;  // into Report::strings
    uint8_t launch_type = 0;     // ENUM_CUDA_KERNEL_LAUNCH_TYPE: 1 regular, 2/3 cooperative
    bool operator==(const KernelConfig&) const = default;
};

// One kernel launch: 8 bytes.
struct KernelInfo {
    uint32_t config = 0;  // row of Report::kernel_configs
    uint32_t correlation_id = 0;
};

// CUDA memcpy direction, as ENUM_CUDA_MEMCPY_OPER numbers it.
enum class CopyKind : uint8_t {
    Unknown = 0,
    HtoD = 1,
    DtoH = 2,
    HtoA = 3,
    AtoH = 4,
    AtoA = 5,
    AtoD = 6,
    DtoA = 7,
    DtoD = 8,
    HtoH = 9,
    PtoP = 10,
    UvmHtoD = 11,
    UvmDtoH = 12,
    UvmDtoD = 13,
};
const char* copyKindLabel(CopyKind kind);  // "Host-to-Device", as nsys labels it

// CUDA memory kinds, as ENUM_CUDA_MEM_KIND numbers them.
enum class MemKind : uint8_t {
    Pageable = 0,
    Pinned = 1,
    Device = 2,
    Array = 3,
    Managed = 4,
    DeviceStatic = 5,
    ManagedStatic = 6,
    Unknown = 7,
};
const char* memKindLabel(MemKind kind);

// One memory copy. bytes in bytes.
struct MemcpyInfo {
    uint64_t bytes = 0;
    uint32_t correlation_id = 0;
    CopyKind copy_kind = CopyKind::Unknown;
    MemKind src_kind = MemKind::Unknown;
    MemKind dst_kind = MemKind::Unknown;
};

// One memset. bytes in bytes.
struct MemsetInfo {
    uint64_t bytes = 0;
    uint32_t correlation_id = 0;
    uint32_t value = 0;
    MemKind mem_kind = MemKind::Unknown;
};

// One synchronization event (CUPTI synchronization activity).
struct SyncInfo {
    uint32_t correlation_id = 0;
    uint8_t sync_type = 0;  // ENUM_CUPTI_SYNC_TYPE: 1 event, 2 stream wait, 3 stream, 4 context
};

// The non-zero result code of one CUDA API call (CUPTI returnValue, e.g. 600
// cudaErrorNotReady), found by its thread (index into Report::threads), start and
// correlation id: 24 bytes per failed call, nothing for the calls that returned 0.
struct CallResult {
    int32_t thread = -1;
    uint32_t correlation_id = 0;
    int64_t start_ns = 0;
    int32_t result = 0;
    auto key() const { return std::tuple(thread, start_ns, correlation_id); }
};

// NVTX range or marker attributes. color is 0xAARRGGBB; has_color false means the default.
struct NvtxInfo {
    uint32_t color = 0;
    uint32_t domain_name_id = 0;  // into Report::strings; 0 = default domain
    uint32_t category = 0;
    bool has_color = false;
    bool start_end = false;  // true for start/end ranges, false for push/pop
};

}  // namespace lanescope
