// Theoretical occupancy (model/Occupancy.h) on hand-made launches of an H100's limits, each
// worked out by hand from the CUDA occupancy calculator's rules. The formula is checked against
// the CUDA driver's own calculation in model_report_tests (OccupancyReportTest).
#include <catch2/catch.hpp>

#include "model/Occupancy.h"

namespace lanescope::test {
namespace {

// The limits cpu_1gpu's export gives its H100 (TARGET_INFO_GPU).
MachineGpu h100() {
    MachineGpu g;
    g[GpuProperty::ThreadsPerWarp] = 32;
    g[GpuProperty::MaxWarpsPerSm] = 64;
    g[GpuProperty::MaxBlocksPerSm] = 32;
    g[GpuProperty::MaxRegistersPerSm] = 65536;
    g[GpuProperty::MaxRegistersPerBlock] = 65536;
    g[GpuProperty::MaxShmemPerSm] = 233472;
    g[GpuProperty::ComputeMajor] = 9;
    g[GpuProperty::ComputeMinor] = 0;
    return g;
}

KernelConfig launch(uint16_t threads, uint16_t registers, uint32_t dynamicShared = 0, uint32_t staticShared = 0) {
    KernelConfig c;
    c.block[0] = threads, c.block[1] = 1, c.block[2] = 1;
    c.registers_per_thread = registers;
    c.dynamic_shared_bytes = dynamicShared;
    c.static_shared_bytes = staticShared;
    return c;
}

}  // namespace

TEST_CASE("theoretical occupancy: each limit, and ties named together", "[occupancy]") {
    const MachineGpu gpu = h100();
    SECTION("8 warps a block, 32 registers: the warps and the registers both allow 8 blocks") {
        const auto o = theoreticalOccupancy(launch(256, 32), gpu);
        REQUIRE(o);
        CHECK(o->blocks_per_sm == 8);
        CHECK(o->warps_per_sm == 64);
        CHECK(o->limits == (kLimitedByWarps | kLimitedByRegisters));
        CHECK(describeOccupancy(*o) ==
              "100 % (64 of 64 warps per SM, 8 blocks; limited by warps per SM and registers)");
    }
    SECTION("76 registers round up to 2,560 a warp: 6 warps a sub-partition, 6 blocks of 4 warps") {
        const auto o = theoreticalOccupancy(launch(128, 76, 20480), gpu);
        REQUIRE(o);
        CHECK(o->blocks_per_sm == 6);
        CHECK(o->limits == kLimitedByRegisters);
        CHECK(describeOccupancy(*o) == "37.5 % (24 of 64 warps per SM, 6 blocks; limited by registers)");
    }
    SECTION("one-warp blocks with few registers: the SM's 32 blocks") {
        const auto o = theoreticalOccupancy(launch(32, 16), gpu);
        REQUIRE(o);
        CHECK(o->blocks_per_sm == 32);
        CHECK(o->percent() == 50);
        CHECK(o->limits == kLimitedByBlocks);
    }
    SECTION("227 KiB of shared memory and 1 KiB reserved: one block, as the registers allow") {
        const auto o = theoreticalOccupancy(launch(384, 168, 231868), gpu);
        REQUIRE(o);
        CHECK(o->blocks_per_sm == 1);
        CHECK(o->warps_per_sm == 12);
        CHECK(o->limits == (kLimitedByRegisters | kLimitedBySharedMemory));
    }
    SECTION("shared memory alone: 40 KiB blocks, 5 of them") {
        const auto o = theoreticalOccupancy(launch(64, 32, 0, 40960), gpu);
        REQUIRE(o);
        CHECK(o->blocks_per_sm == 5);  // 233472 / (40960 + 1024)
        CHECK(o->limits == kLimitedBySharedMemory);
    }
    SECTION("a block needing more registers than a block may have fits none") {
        const auto o = theoreticalOccupancy(launch(1024, 255), gpu);
        REQUIRE(o);
        CHECK(o->blocks_per_sm == 0);
        CHECK(o->limits == kLimitedByRegisters);
    }
    SECTION("no kernel registers recorded: the registers do not limit") {
        const auto o = theoreticalOccupancy(launch(1024, 0), gpu);
        REQUIRE(o);
        CHECK(o->blocks_per_sm == 2);
        CHECK(o->limits == kLimitedByWarps);
    }
}

TEST_CASE("theoretical occupancy is not guessed without the GPU's limits", "[occupancy]") {
    CHECK_FALSE(theoreticalOccupancy(launch(256, 32), MachineGpu{}));
    MachineGpu old = h100();
    old[GpuProperty::ComputeMajor] = 6;  // other granularities, not modelled
    CHECK_FALSE(theoreticalOccupancy(launch(256, 32), old));
    MachineGpu partial = h100();
    partial[GpuProperty::MaxRegistersPerSm] = kNoGpuProperty;
    CHECK_FALSE(theoreticalOccupancy(launch(256, 32), partial));
    CHECK_FALSE(theoreticalOccupancy(launch(0, 32), h100()));
}

}  // namespace lanescope::test
