#include "model/SystemProperties.h"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "model/Report.h"

namespace lanescope {

std::string_view systemPropertyName(uint32_t number) {
    // By number, as the exports name them.
    static constexpr std::pair<uint32_t, std::string_view> kNames[] = {
        {1, "CpuCores"},
        {2, "CpuSpeedMhz"},
        {3, "CpuArchitecture"},
        {5, "SupportedABIs"},
        {7, "Supported64BitABIs"},
        {11, "CNTFRQMHz"},
        {13, "CpuDescription"},
        {14, "CpuInfo"},
        {101, "CpuEmcSpeedMhz"},
        {153, "SupportsXmcClients"},
        {170, "TargetInstallDir"},
        {173, "InjectionFilesStoragePath"},
        {203, "HasDiscreteGpu"},
        {205, "NvDriverVersion"},
        {506, "IsX86BasedDevice"},
        {600, "HardwarePlatform"},
        {601, "SoftwarePlatform"},
        {605, "OsDescription"},
        {610, "DeviceEnvironment"},
        {611, "CudaDriverVersion"},
        {618, "SoftwareReleaseVersion"},
        {619, "Hostname"},
        {701, "IsDevicePropsUpdated"},
        {702, "IsDeviceCapsUpdated"},
        {703, "IsPersistentDevice"},
        {705, "IsRootEnabled"},
        {721, "SystemUID"},
        {800, "HasThreadStateEvents"},
        {801, "HasCpuCycles"},
        {802, "HasL1CacheDataReadMisses"},
        {803, "HasL1CacheDataWriteMisses"},
        {804, "HasL1CacheInstructionMisses"},
        {805, "HasL2CacheDataReadMisses"},
        {806, "HasL2CacheDataWriteMisses"},
        {807, "HasL2CacheInstructionMisses"},
        {809, "HasNvtxEvents"},
        {812, "HasCudaEvents"},
        {813, "HasGraphicsEvents"},
        {815, "HasOSRuntimeEvents"},
        {816, "HasCuDNNEvents"},
        {817, "DeprecatedHasCuBLASEvents"},
        {819, "HasOpenACCEvents"},
        {820, "HasNvMediaEvents"},
        {821, "HasCudaBacktraceEvents"},
        {822, "HasVideoEvents"},
        {838, "SupportsDX11"},
        {839, "SupportsDX12"},
        {840, "SupportsGpuCtxsw"},
        {842, "SupportsPmuCounters"},
        {844, "SupportsCpuFrequency"},
        {845, "SupportsVulkan"},
        {846, "SupportsMPI"},
        {848, "SupportsCpuCtxsw"},
        {849, "SupportsGpuMetrics"},
        {850, "HasMutualL2CacheEvents"},
        {851, "HasBacktraces"},
        {852, "HasBacktracingAlgorithms"},
        {861, "SupportsSampling"},
        {862, "SupportsLinuxPerf"},
        {863, "dptiSupportsHES"},
        {880, "ModuleVersion"},
        {882, "KernelVersion"},
        {891, "EventLibSourcesInfo"},
        {892, "SupportsArchTimer"},
        {893, "SupportsForceArchTimer"},
        {894, "SupportedFTraceEvents"},
        {895, "QnxKernelTraceInfo"},
        {896, "IsGameRecordingModeOn"},
        {897, "GpuInfo"},
        {899, "HasOpenMPEvents"},
        {900, "SupportsSli"},
        {901, "SupportsLBR"},
        {902, "GpuMetricsConfig"},
        {903, "SupportsOpenSHMEM"},
        {904, "ExportLevel"},
        {905, "GpuMetricsSupportedGpus"},
        {906, "SupportsUCX"},
        {907, "SupportsIsr"},
        {908, "SupportsSocMetrics"},
        {910, "NicInfo"},
        {911, "OfedDriverVersion"},
        {912, "LinuxPerfInfo"},
        {913, "SupportsPythonBacktraceSampling"},
        {914, "SupportsNicMetrics"},
        {917, "SupportsVulkanSC"},
        {918, "SupportsOpenXR"},
        {919, "LinuxParanoidLevel"},
        {920, "SupportsSyscallTrace"},
        {921, "SocInfo"},
    };
    const auto it = std::lower_bound(std::begin(kNames), std::end(kNames), number,
                                     [](const auto& entry, uint32_t n) { return entry.first < n; });
    return it != std::end(kNames) && it->first == number ? it->second : std::string_view();
}

bool isStructuredSystemProperty(uint32_t number) {
    static constexpr std::array<uint32_t, 7> kStructured = {891, 894, 895, 897, 905, 910, 912};
    return std::find(kStructured.begin(), kStructured.end(), number) != kStructured.end();
}

std::optional<std::string_view> systemProperty(const Report& report, uint32_t number) {
    for (const SystemProperty& p : report.system_properties)
        if (p.name_enum == number) return report.str(p.value_id);
    return std::nullopt;
}

namespace {

// A driver version recorded as digits (2020: "4603203") in its dotted form ("460.32.03"); a
// dotted one as it is.
std::string driverVersion(std::string_view recorded) {
    if (recorded.size() < 5 ||
        !std::all_of(recorded.begin(), recorded.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::string(recorded);
    const std::string_view major = recorded.substr(0, recorded.size() - 4);
    return std::string(major) + "." + std::string(recorded.substr(major.size(), 2)) + "." +
           std::string(recorded.substr(major.size() + 2));
}

// CUDA's version number (13000) as "13.0".
std::string cudaVersion(std::string_view recorded) {
    int version = 0;
    for (char c : recorded) {
        if (c < '0' || c > '9') return std::string(recorded);
        version = version * 10 + (c - '0');
        if (version > 1'000'000) return std::string(recorded);
    }
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

}  // namespace

std::string describeMachine(const Report& report) {
    std::vector<std::string> parts;
    const auto add = [&](uint32_t number, auto&& shown) {
        if (const auto value = systemProperty(report, number); value && !value->empty()) parts.push_back(shown(*value));
    };
    const auto asIs = [](std::string_view v) { return std::string(v); };
    add(kHostname, asIs);
    add(kOsDescription, asIs);
    const auto cores = systemProperty(report, kCpuCores);
    add(kCpuDescription, [&](std::string_view v) {
        return cores && !cores->empty() ? std::string(*cores) + " \xC3\x97 " + std::string(v) : std::string(v);
    });
    add(kNvDriverVersion, [](std::string_view v) { return "NVIDIA driver " + driverVersion(v); });
    add(kCudaDriverVersion, [](std::string_view v) { return "CUDA " + cudaVersion(v); });
    std::string line;
    for (const std::string& part : parts) line += (line.empty() ? "" : ", ") + part;
    return line;
}

}  // namespace lanescope
