#include "model/GpuProperties.h"

#include <cstdio>
#include <vector>

#include "model/Report.h"

namespace lanescope {

const std::array<GpuPropertyColumn, kGpuPropertyCount>& gpuPropertyColumns() {
    static const std::array<GpuPropertyColumn, kGpuPropertyCount> columns = {{
        {"id"},
        {"name", true},
        {"busLocation", true},
        {"isDiscrete"},
        {"l2CacheSize"},
        {"totalMemory"},
        {"memoryBandwidth"},
        {"clockRate"},
        {"smCount"},
        {"pwGpuId"},
        {"uuid", true},
        {"luid"},
        {"chipName", true},
        {"cuDevice"},
        {"ctxswDevPath", true},
        {"ctrlDevPath", true},
        {"revision"},
        {"nodeMask"},
        {"constantMemory"},
        {"maxIPC"},
        {"maxRegistersPerBlock"},
        {"maxShmemPerBlock"},
        {"maxShmemPerBlockOptin"},
        {"maxShmemPerSm"},
        {"maxRegistersPerSm"},
        {"threadsPerWarp"},
        {"asyncEngines"},
        {"maxWarpsPerSm"},
        {"maxBlocksPerSm"},
        {"maxThreadsPerBlock"},
        {"maxBlockDimX"},
        {"maxBlockDimY"},
        {"maxBlockDimZ"},
        {"maxGridDimX"},
        {"maxGridDimY"},
        {"maxGridDimZ"},
        {"computeMajor"},
        {"computeMinor"},
        {"smMajor"},
        {"smMinor"},
    }};
    return columns;
}

const MachineGpu* machineGpuOf(const Report& report, const Gpu& gpu) {
    for (const MachineGpu& m : report.machine_gpus) {
        const int64_t cuda = m[GpuProperty::CuDevice] != kNoGpuProperty ? m[GpuProperty::CuDevice] : m[GpuProperty::Id];
        if (cuda == gpu.device_id) return &m;
    }
    return nullptr;
}

namespace {

// printf into a std::string.
template <typename... Args>
std::string formatted(const char* format, Args... args) {
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, format, args...);
    return buffer;
}

}  // namespace

std::string describeMachineGpu(const Report& report, const MachineGpu& gpu) {
    using P = GpuProperty;
    const auto has = [&](std::initializer_list<P> ps) {
        for (P p : ps)
            if (gpu[p] == kNoGpuProperty) return false;
        return true;
    };
    const auto text = [&](P p) {
        const int64_t id = gpu[p];
        return id >= 0 && size_t(id) < report.strings.size() ? std::string(report.str(uint32_t(id))) : std::string();
    };
    const auto number = [&](P p) { return static_cast<long long>(gpu[p]); };
    const auto gib = [&](P p) { return double(gpu[p]) / double(int64_t{1} << 30); };
    std::vector<std::string> lines;
    std::string title = text(P::Name);
    if (const std::string chip = text(P::ChipName); !chip.empty()) title += " (" + chip + ")";
    if (has({P::ComputeMajor, P::ComputeMinor}))
        title += formatted(", compute capability %lld.%lld", number(P::ComputeMajor), number(P::ComputeMinor));
    lines.push_back(title);
    if (has({P::SmCount, P::ClockRate}))
        lines.push_back(formatted("%lld SMs at %.2f GHz", number(P::SmCount), double(gpu[P::ClockRate]) / 1e9));
    if (has({P::TotalMemory, P::MemoryBandwidth}))
        lines.push_back(
            formatted("%.1f GiB memory at %.2f TB/s", gib(P::TotalMemory), double(gpu[P::MemoryBandwidth]) / 1e12));
    if (has({P::L2CacheSize}))
        lines.push_back(formatted("%.0f MiB L2 cache", double(gpu[P::L2CacheSize]) / double(1 << 20)));
    if (has({P::MaxWarpsPerSm, P::MaxBlocksPerSm, P::MaxRegistersPerSm, P::MaxShmemPerSm}))
        lines.push_back(formatted("per SM: %lld warps, %lld blocks, %lld registers, %lld KiB shared memory",
                                  number(P::MaxWarpsPerSm), number(P::MaxBlocksPerSm), number(P::MaxRegistersPerSm),
                                  number(P::MaxShmemPerSm) / 1024));
    if (const std::string bus = text(P::BusLocation); !bus.empty()) lines.push_back("bus " + bus);
    if (const std::string uuid = text(P::Uuid); !uuid.empty()) lines.push_back("UUID " + uuid);
    std::string out;
    for (const std::string& line : lines) {
        if (!out.empty()) out += '\n';
        out += line;
    }
    return out;
}

}  // namespace lanescope
