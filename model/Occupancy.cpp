#include "model/Occupancy.h"

#include <algorithm>
#include <array>
#include <cstdio>

#include "model/Report.h"

namespace lanescope {

namespace {

uint64_t roundUp(uint64_t value, uint64_t unit) { return (value + unit - 1) / unit * unit; }

}  // namespace

std::optional<Occupancy> theoreticalOccupancy(const KernelConfig& config, const MachineGpu& gpu) {
    using P = GpuProperty;
    for (P p : {P::ThreadsPerWarp, P::MaxWarpsPerSm, P::MaxBlocksPerSm, P::MaxRegistersPerSm, P::MaxRegistersPerBlock,
                P::MaxShmemPerSm, P::ComputeMajor})
        if (gpu[p] <= 0) return std::nullopt;  // absent (kNoGpuProperty is negative) or no such limit
    const int64_t major = gpu[P::ComputeMajor];
    const uint64_t threads = uint64_t{config.block[0]} * config.block[1] * config.block[2];
    if (major < 7 || threads == 0) return std::nullopt;
    const auto warpSize = uint64_t(gpu[P::ThreadsPerWarp]);
    const uint64_t warpsPerBlock = (threads + warpSize - 1) / warpSize;

    // The blocks each resource allows, in OccupancyLimit's bit order.
    std::array<uint64_t, 4> allowed{};
    allowed[0] = uint64_t(gpu[P::MaxBlocksPerSm]);
    allowed[1] = uint64_t(gpu[P::MaxWarpsPerSm]) / warpsPerBlock;
    allowed[2] = UINT64_MAX;
    if (config.registers_per_thread > 0) {
        constexpr uint64_t kRegisterUnit = 256, kSubPartitions = 4;
        const uint64_t perWarp = roundUp(uint64_t{config.registers_per_thread} * warpSize, kRegisterUnit);
        const uint64_t warps = uint64_t(gpu[P::MaxRegistersPerSm]) / kSubPartitions / perWarp * kSubPartitions;
        allowed[2] = perWarp * warpsPerBlock > uint64_t(gpu[P::MaxRegistersPerBlock]) ? 0 : warps / warpsPerBlock;
    }
    const uint64_t reserved = major >= 8 ? 1024 : 0, granularity = major >= 8 ? 128 : 256;
    const uint64_t perBlock =
        roundUp(uint64_t{config.static_shared_bytes} + config.dynamic_shared_bytes + reserved, granularity);
    allowed[3] = perBlock > 0 ? uint64_t(gpu[P::MaxShmemPerSm]) / perBlock : UINT64_MAX;

    const uint64_t blocks = *std::min_element(allowed.begin(), allowed.end());
    Occupancy o;
    o.blocks_per_sm = uint32_t(blocks);
    o.warps_per_sm = uint32_t(blocks * warpsPerBlock);
    o.max_warps_per_sm = uint32_t(gpu[P::MaxWarpsPerSm]);
    for (size_t i = 0; i < allowed.size(); ++i)
        if (allowed[i] == blocks) o.limits |= uint8_t(1u << i);
    return o;
}

std::optional<Occupancy> kernelOccupancy(const Report& report, const Lane& lane, const KernelConfig& config) {
    if (lane.gpu < 0 || static_cast<size_t>(lane.gpu) >= report.gpus.size()) return std::nullopt;
    const MachineGpu* gpu = machineGpuOf(report, report.gpus[static_cast<size_t>(lane.gpu)]);
    return gpu ? theoreticalOccupancy(config, *gpu) : std::nullopt;
}

std::string describePercent(double percent) {
    const bool whole = percent == static_cast<double>(static_cast<int64_t>(percent));
    char text[32];
    std::snprintf(text, sizeof text, whole ? "%.0f %%" : "%.1f %%", percent);
    return text;
}

std::string describeOccupancy(const Occupancy& o) {
    char counts[80];
    std::snprintf(counts, sizeof counts, " (%u of %u warps per SM, %u block%s", o.warps_per_sm, o.max_warps_per_sm,
                  o.blocks_per_sm, o.blocks_per_sm == 1 ? "" : "s");
    std::string text = describePercent(o.percent()) + counts;
    const std::array<const char*, 4> names = {"blocks per SM", "warps per SM", "registers", "shared memory"};
    std::string limits;
    for (size_t i = 0; i < names.size(); ++i) {
        if (!(o.limits & (1u << i))) continue;
        if (!limits.empty()) limits += " and ";
        limits += names[i];
    }
    if (!limits.empty()) text += "; limited by " + limits;
    return text + ")";
}

}  // namespace lanescope
