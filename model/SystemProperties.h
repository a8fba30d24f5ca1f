#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lanescope {

struct Report;

// The numbers of the recording machine's properties (the export's TARGET_INFO_SYSTEM_ENV
// nameEnum) that Lanescope itself reads.
enum SystemPropertyNumber : uint32_t {
    kCpuCores = 1,
    kCpuDescription = 13,
    kNvDriverVersion = 205,
    kOsDescription = 605,
    kDeviceEnvironment = 610,  // the environment, "NAME=value;NAME=value;..."
    kCudaDriverVersion = 611,
    kHostname = 619,
};

// The name nsys's export gives a property number ("Hostname"): the 89 seen in the corpus's
// exports of 2020.5 to 2025.3 reports (tests/data and ../shared). Empty for another number.
std::string_view systemPropertyName(uint32_t number);

// Whether a .nsys-rep records the property as a protobuf message, which nsys's export writes as
// JSON (891 EventLibSourcesInfo, 894 SupportedFTraceEvents, 895 QnxKernelTraceInfo, 897 GpuInfo,
// 905 GpuMetricsSupportedGpus, 910 NicInfo, 912 LinuxPerfInfo, in the corpus's reports of 2020.5
// to 2025.3). The native reader leaves these out: their JSON names the message's fields, which
// the file does not. (The GPUs of GpuInfo are Report::machine_gpus.)
bool isStructuredSystemProperty(uint32_t number);

// The value of the report's property of that number (Report::system_properties); nullopt
// when the report does not record it.
std::optional<std::string_view> systemProperty(const Report& report, uint32_t number);

// The recording machine in one line for a person: host, operating system, CPU, NVIDIA and CUDA
// driver versions, those recorded ("vm, Ubuntu 24.04.3 LTS, 16 × Intel(R) Xeon(R) Processor,
// NVIDIA driver 580.159.04, CUDA 13.0"). Empty when none is.
std::string describeMachine(const Report& report);

}  // namespace lanescope
