#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace lanescope {

struct Gpu;
struct Report;

// What Nsight Systems records of each GPU of the machine, one property per column of its
// export's TARGET_INFO_GPU after vmId, in that order. Sizes in bytes, memoryBandwidth in
// bytes per second, clockRate in Hz.
enum class GpuProperty : uint8_t {
    Id,  // nsys's own GPU id (not the CUDA device id: that is CuDevice)
    Name,
    BusLocation,
    IsDiscrete,
    L2CacheSize,
    TotalMemory,
    MemoryBandwidth,
    ClockRate,
    SmCount,
    PwGpuId,
    Uuid,
    Luid,
    ChipName,
    CuDevice,
    CtxswDevPath,
    CtrlDevPath,
    Revision,
    NodeMask,
    ConstantMemory,
    MaxIpc,
    MaxRegistersPerBlock,
    MaxShmemPerBlock,
    MaxShmemPerBlockOptin,
    MaxShmemPerSm,
    MaxRegistersPerSm,
    ThreadsPerWarp,
    AsyncEngines,
    MaxWarpsPerSm,
    MaxBlocksPerSm,
    MaxThreadsPerBlock,
    MaxBlockDimX,
    MaxBlockDimY,
    MaxBlockDimZ,
    MaxGridDimX,
    MaxGridDimY,
    MaxGridDimZ,
    ComputeMajor,
    ComputeMinor,
    SmMajor,
    SmMinor,
    Count
};
inline constexpr size_t kGpuPropertyCount = size_t(GpuProperty::Count);

// A property's column in the export, and whether its value is text.
struct GpuPropertyColumn {
    std::string_view name;  // e.g. "smCount"
    bool text = false;
};
// Indexed by GpuProperty.
const std::array<GpuPropertyColumn, kGpuPropertyCount>& gpuPropertyColumns();

// The value of a property the report does not give (NULL in the export).
inline constexpr int64_t kNoGpuProperty = INT64_MIN;

// One GPU of the recording machine, used by the recorded processes or not (nsys lists them
// all): each property's value indexed by GpuProperty, a text property as an id into
// Report::strings, kNoGpuProperty where absent. 320 bytes a GPU.
struct MachineGpu {
    std::array<int64_t, kGpuPropertyCount> values{};

    MachineGpu() { values.fill(kNoGpuProperty); }
    int64_t operator[](GpuProperty p) const { return values[size_t(p)]; }
    int64_t& operator[](GpuProperty p) { return values[size_t(p)]; }
};

// The machine's description of a GPU of Report::gpus: the one whose cuDevice (else id) is
// its CUDA device id; nullptr when the report describes none (PyTorch and Perfetto traces).
const MachineGpu* machineGpuOf(const Report& report, const Gpu& gpu);

// Its properties in a few lines for a person: the chip and compute capability, SMs and clock,
// memory and bandwidth, L2 cache, bus and UUID, and the per-SM limits ("NVIDIA H200 (GH100),
// compute capability 9.0\n132 SMs at 1.98 GHz\n..."). Lines whose properties are absent are
// left out.
std::string describeMachineGpu(const Report& report, const MachineGpu& gpu);

}  // namespace lanescope
