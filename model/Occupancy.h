#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "model/GpuProperties.h"
#include "model/SideTables.h"

namespace lanescope {

// What bounds how many blocks of a kernel launch an SM holds at once, as bits: several when
// they bound it equally.
enum OccupancyLimit : uint8_t {
    kLimitedByBlocks = 1,        // the SM's most blocks (maxBlocksPerSm)
    kLimitedByWarps = 2,         // the SM's most warps (maxWarpsPerSm)
    kLimitedByRegisters = 4,     // the register file (maxRegistersPerSm, in four sub-partitions)
    kLimitedBySharedMemory = 8,  // the SM's shared memory (maxShmemPerSm)
};

// A kernel launch's theoretical occupancy: the blocks of it that fit on one SM at once, and the
// warps they hold against the most an SM holds.
struct Occupancy {
    uint32_t blocks_per_sm = 0;
    uint32_t warps_per_sm = 0;
    uint32_t max_warps_per_sm = 0;
    uint8_t limits = 0;  // OccupancyLimit bits
    double percent() const { return max_warps_per_sm ? 100.0 * warps_per_sm / max_warps_per_sm : 0; }
};

// The CUDA occupancy calculator's model for compute capability 7.0 and later, from the launch's
// block, registers and shared memory and the GPU's limits (TARGET_INFO_GPU):
// - warps a block = its threads / threadsPerWarp, rounded up;
// - registers a warp = registers a thread × threadsPerWarp, rounded up to 256; each of the SM's
//   4 sub-partitions holds maxRegistersPerSm / 4 of them, so the warps the registers allow are
//   4 × floor(maxRegistersPerSm / 4 / registers a warp); none when a block needs more than
//   maxRegistersPerBlock;
// - shared memory a block = static + dynamic + 1 KiB reserved by the system (compute capability
//   8.0 on; none before), rounded up to 128 bytes (256 before 8.0), out of the SM's largest
//   configuration, maxShmemPerSm. Not the configuration the launch ran with
//   (KernelConfig::shared_executed_bytes): the driver sizes it to the blocks the other limits
//   allow, and CUPTI records too small a one for kernels replayed in a CUDA graph (cuda_graphs:
//   32 KiB for a kernel needing 227 KiB);
// - blocks = the least of maxBlocksPerSm, maxWarpsPerSm / warps a block, the registers' and the
//   shared memory's, each rounded down.
// nullopt where the GPU's limits are not all known, its compute capability is below 7.0, or
// the block is empty. Checked against cuOccupancyMaxActiveBlocksPerMultiprocessor on an H100
// (tests/data/expected/occupancy).
std::optional<Occupancy> theoreticalOccupancy(const KernelConfig& config, const MachineGpu& gpu);

struct Lane;
struct Report;
// The same for a launch on `lane`'s GPU, as the report describes it (machineGpuOf); nullopt
// where it describes none.
std::optional<Occupancy> kernelOccupancy(const Report& report, const Lane& lane, const KernelConfig& config);

// "50 %", "12.5 %": whole percents without a decimal, others with one.
std::string describePercent(double percent);

// "50 % (32 of 64 warps per SM, 2 blocks; limited by registers)", "37.5 % (...)".
std::string describeOccupancy(const Occupancy& occupancy);

}  // namespace lanescope
