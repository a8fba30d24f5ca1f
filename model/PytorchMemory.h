#pragma once
#include <cstdint>
#include <string>

namespace lanescope {

// The device kinds of PyTorch's memory events (c10::DeviceType numbers, as Kineto writes the
// arg "Device Type").
inline constexpr uint8_t kPytorchDeviceCpu = 0;
inline constexpr uint8_t kPytorchDeviceCuda = 1;

// One allocation or free by PyTorch's caching allocators, as a trace made with
// profile_memory=True records it (a Kineto "[memory]" instant): Report::pytorch_memory, sorted
// by time_ns (ties in file order). Times are ns on the report's timeline, like lane events;
// sizes in bytes. 48 bytes an event.
struct PytorchMemoryEvent {
    int64_t time_ns = 0;
    int64_t address = 0;                      // "Addr": the block's address
    int64_t bytes = 0;                        // "Bytes": positive for an allocation, negative for a free
    int64_t total_allocated = 0;              // "Total Allocated": bytes allocated on the device after it
    int64_t total_reserved = 0;               // "Total Reserved": bytes the allocator holds on the device after it
    int32_t thread = -1;                      // index into Report::threads: the thread that allocated or freed
    int16_t device_id = -1;                   // "Device Id": the CUDA device; -1 for the CPU
    uint8_t device_type = kPytorchDeviceCpu;  // "Device Type": kPytorchDeviceCpu, kPytorchDeviceCuda, ...
};

// "CUDA 0", "CPU", or "device type 7 3" for the kinds not named above.
std::string pytorchDeviceLabel(uint8_t deviceType, int16_t deviceId);

}  // namespace lanescope
