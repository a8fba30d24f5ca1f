#include <algorithm>
#include <catch2/catch.hpp>

#include "model/EventDetails.h"
#include "support/TinyReport.h"

using namespace lanescope;
using lanescope::test::TinyReport;

namespace {

std::vector<std::string> labels(const std::vector<DetailField>& fields) {
    std::vector<std::string> out;
    for (const auto& f : fields) out.push_back(f.label);
    return out;
}

std::string value(const std::vector<DetailField>& fields, const std::string& label) {
    for (const auto& f : fields)
        if (f.label == label) return f.value;
    return "<missing " + label + ">";
}

}  // namespace

TEST_CASE("detailDuration picks the unit and rounds half up to three decimals") {
    CHECK(detailDuration(0) == "0 ns");
    CHECK(detailDuration(850) == "850 ns");
    CHECK(detailDuration(999) == "999 ns");
    CHECK(detailDuration(1000) == "1.000 \xC2\xB5s");
    CHECK(detailDuration(12345) == "12.345 \xC2\xB5s");
    CHECK(detailDuration(999999) == "999.999 \xC2\xB5s");
    CHECK(detailDuration(1234567) == "1.235 ms");
    CHECK(detailDuration(1234499) == "1.234 ms");
    CHECK(detailDuration(1999999) == "2.000 ms");
    CHECK(detailDuration(999999499) == "999.999 ms");
    CHECK(detailDuration(999999500) == "1.000 s");  // rounds up into the next unit
    CHECK(detailDuration(3600000000000) == "3600.000 s");
    CHECK(detailDuration(-1500) == "-1.500 \xC2\xB5s");
    CHECK(detailDuration(INT64_MIN) == "-9223372036.855 s");
}

TEST_CASE("detailBytes, detailThousands and detailThroughput") {
    CHECK(detailThousands(0) == "0");
    CHECK(detailThousands(999) == "999");
    CHECK(detailThousands(1000) == "1,000");
    CHECK(detailThousands(16777216) == "16,777,216");
    CHECK(detailBytes(60) == "60 B");
    CHECK(detailBytes(1000) == "1,000 B (1.00 kB)");
    CHECK(detailBytes(16777216) == "16,777,216 B (16.78 MB)");
    CHECK(detailBytes(999999) == "999,999 B (1.00 MB)");
    CHECK(detailBytes(3000000000) == "3,000,000,000 B (3.00 GB)");
    CHECK(detailThroughput(1000000000, 1000000) == "1000.000 GB/s");
    CHECK(detailThroughput(16777216, 1000000) == "16.777 GB/s");
    CHECK(detailThroughput(60, 1500) == "40.000 MB/s");
    CHECK(detailThroughput(60, 0) == "n/a");
}

TEST_CASE("eventDetails of a kernel: common fields then launch configuration, in order") {
    TinyReport t;
    const int32_t p = t.process(4242, "python3");
    const int32_t g = t.gpu(1, "NVIDIA H200");
    const uint32_t s = t.gpuLane(LaneKind::GpuStream, p, g, 7, "Stream 7");
    KernelConfig c;
    c.grid[0] = 1, c.grid[1] = 1024, c.grid[2] = 1;
    c.block[0] = 128, c.block[1] = 1, c.block[2] = 1;
    c.registers_per_thread = 255;
    c.static_shared_bytes = 0;
    c.dynamic_shared_bytes = 33280;
    c.local_bytes_per_thread = 16;
    c.launch_type = 2;
    c.short_name_id = t.r.strings.intern("gemm");
    t.event(s, 62734276, 62797956, "void gemm<float>(...)", EventKind::Kernel, t.kernel(529, c));
    t.freeze();
    const auto d = eventDetails(t.r, {s, 0});
    CHECK(labels(d) == std::vector<std::string>{"Name", "Kind", "Start", "Duration", "Lane", "Process", "GPU", "Stream",
                                                "Depth", "Grid", "Block", "Registers/thread", "Static shared memory",
                                                "Dynamic shared memory", "Local memory/thread", "Launch type",
                                                "Short name", "Correlation id"});
    CHECK(value(d, "Name") == "void gemm<float>(...)");
    CHECK(value(d, "Kind") == "Kernel");
    CHECK(value(d, "Start") == "62734276 ns");
    CHECK(value(d, "Duration") == "63.680 \xC2\xB5s");
    CHECK(value(d, "Lane") == "Stream 7");
    CHECK(value(d, "Process") == "python3 [4242]");
    CHECK(value(d, "GPU") == "NVIDIA H200 (device 1)");
    CHECK(value(d, "Stream") == "7");
    CHECK(value(d, "Depth") == "0");
    CHECK(value(d, "Grid") == "1 \xC3\x97 1024 \xC3\x97 1");
    CHECK(value(d, "Block") == "128 \xC3\x97 1 \xC3\x97 1");
    CHECK(value(d, "Registers/thread") == "255");
    CHECK(value(d, "Static shared memory") == "0 B");
    CHECK(value(d, "Dynamic shared memory") == "33,280 B (33.28 kB)");
    CHECK(value(d, "Local memory/thread") == "16 B");
    CHECK(value(d, "Launch type") == "Cooperative (single device)");
    CHECK(value(d, "Short name") == "gemm");
    CHECK(value(d, "Correlation id") == "529");
}

TEST_CASE("eventDetails of memcpy, memset, CUDA API, NVTX, OS runtime and sync events") {
    TinyReport t;
    const int32_t p = t.process(7, "app");
    const int32_t th = t.thread(p, 8, "worker");
    const int32_t g = t.gpu(0, "GPU");
    const uint32_t s = t.gpuLane(LaneKind::GpuStream, p, g, 3, "Stream 3");
    const uint32_t sync = t.gpuLane(LaneKind::CudaSync, p, g, -1, "Sync, context");
    const uint32_t api = t.cpuLane(LaneKind::CudaApi, th, "CUDA API");
    const uint32_t nvtx = t.cpuLane(LaneKind::Nvtx, th, "NVTX");
    const uint32_t osrt = t.cpuLane(LaneKind::OsRuntime, th, "OS runtime");
    t.event(s, 0, 1000000, "[CUDA memcpy Host-to-Device]", EventKind::Memcpy,
            t.memcpy({16777216, 11, CopyKind::HtoD, MemKind::Pageable, MemKind::Device}));
    t.event(s, 2000000, 2001500, "[CUDA memset]", EventKind::Memset, t.memset({60, 12, 255, MemKind::Device}));
    t.r.syncs.push_back({13, 4});
    t.event(sync, 5, 10, "Context sync", EventKind::Sync, 0);
    t.r.syncs.push_back({.correlation_id = 14, .sync_type = 1, .event_sync_id = 7, .event_id = 15});
    t.event(sync, 20, 30, "Event sync", EventKind::Sync, 1);
    t.event(api, 0, 10, "cudaMemcpyAsync", EventKind::CudaApiCall, 11);
    NvtxInfo colored;
    colored.color = 0xFF12AB34;
    colored.has_color = true;
    colored.category = 3;
    colored.domain_name_id = t.r.strings.intern("NCCL");
    t.event(nvtx, 0, 100, "outer", EventKind::NvtxRange, t.nvtx({}));
    t.event(nvtx, 10, 20, "inner", EventKind::NvtxRange, t.nvtx(colored));
    t.event(osrt, 0, 5, "ioctl", EventKind::OsRuntimeCall);
    t.freeze();

    const auto memcpy = eventDetails(t.r, {s, 0});
    CHECK(value(memcpy, "Kind") == "Memcpy");
    CHECK(value(memcpy, "Bytes") == "16,777,216 B (16.78 MB)");
    CHECK(value(memcpy, "Throughput") == "16.777 GB/s");
    CHECK(labels(memcpy).back() == "Correlation id");
    CHECK(value(memcpy, "Correlation id") == "11");
    CHECK(value(memcpy, "Copy kind") == "Host-to-Device");
    CHECK(value(memcpy, "Source memory") == "Pageable");
    CHECK(value(memcpy, "Destination memory") == "Device");

    const auto memset = eventDetails(t.r, {s, 1});
    CHECK(value(memset, "Duration") == "1.500 \xC2\xB5s");
    CHECK(value(memset, "Bytes") == "60 B");
    CHECK(value(memset, "Throughput") == "40.000 MB/s");
    CHECK(value(memset, "Value") == "255");
    CHECK(value(memset, "Memory kind") == "Device");
    CHECK(value(memset, "Correlation id") == "12");

    const auto syncD = eventDetails(t.r, {sync, 0});
    CHECK(value(syncD, "Type") == "Context sync");
    CHECK(value(syncD, "Correlation id") == "13");
    CHECK(value(syncD, "Stream").starts_with("<missing"));    // context-wide: no stream
    CHECK(value(syncD, "Event id").starts_with("<missing"));  // waited for no event
    const auto eventSyncD = eventDetails(t.r, {sync, 1});
    CHECK(value(eventSyncD, "Type") == "Event sync");
    CHECK(value(eventSyncD, "Event id") == "15");
    CHECK(value(eventSyncD, "Event sync id") == "7");

    const auto apiD = eventDetails(t.r, {api, 0});
    CHECK(labels(apiD) == std::vector<std::string>{"Name", "Kind", "Start", "Duration", "Lane", "Process", "Thread",
                                                   "Depth", "Correlation id"});
    CHECK(value(apiD, "Kind") == "CUDA API");
    CHECK(value(apiD, "Thread") == "worker [8]");
    CHECK(value(apiD, "Correlation id") == "11");

    const auto outer = eventDetails(t.r, {nvtx, 0});
    CHECK(value(outer, "Domain") == "default");
    CHECK(value(outer, "Color").starts_with("<missing"));
    CHECK(value(outer, "Category").starts_with("<missing"));
    CHECK(value(outer, "Style") == "push/pop");
    const auto inner = eventDetails(t.r, {nvtx, 1});
    CHECK(value(inner, "Kind") == "NVTX range");
    CHECK(value(inner, "Depth") == "1");
    CHECK(value(inner, "Domain") == "NCCL");
    CHECK(value(inner, "Color") == "#12AB34");
    CHECK(value(inner, "Category") == "3");

    const auto os = eventDetails(t.r, {osrt, 0});
    CHECK(value(os, "Kind") == "OS runtime");
    CHECK(labels(os).back() == "Depth");
}

TEST_CASE("eventDetails of an invalid ref is empty") {
    TinyReport t;
    const int32_t p = t.process(7, "app");
    const int32_t th = t.thread(p, 8, "worker");
    const uint32_t api = t.cpuLane(LaneKind::CudaApi, th, "CUDA API");
    t.event(api, 0, 10, "cudaFree", EventKind::CudaApiCall, 1);
    t.freeze();
    CHECK(eventDetails(t.r, {api, 1}).empty());
    CHECK(eventDetails(t.r, {api + 1, 0}).empty());
    CHECK_FALSE(eventDetails(t.r, {api, 0}).empty());
}

TEST_CASE("eventDetails of a PyTorch kernel adds its occupancy estimates; instantDetails a memory marker's event") {
    TinyReport t;
    const int32_t p = t.process(611, "python3");
    const int32_t th = t.thread(p, 644, "main");
    const int32_t other = t.thread(p, 645, "worker");
    const int32_t g = t.gpu(0, "NVIDIA H200");
    const uint32_t s = t.gpuLane(LaneKind::GpuStream, p, g, 7, "Stream 7");
    KernelConfig c;
    c.blocks_per_sm = 0.030303f, c.warps_per_sm = 0.121212f, c.est_achieved_occupancy_pct = 24;
    t.event(s, 100, 200, "softmax", EventKind::Kernel, t.kernel(1, c));
    const uint32_t plain = t.gpuLane(LaneKind::GpuStream, p, g, 8, "Stream 8");
    t.event(plain, 100, 200, "gemm", EventKind::Kernel, t.kernel(2));
    const uint32_t marks = t.cpuLane(LaneKind::Nvtx, th, "Annotations");
    for (int64_t time : {500, 500, 900}) {
        t.r.lanes[marks].instants.time_ns.push_back(time);
        t.r.lanes[marks].instants.name_id.push_back(t.r.strings.intern("[memory]"));
        t.r.lanes[marks].instants.payload.push_back(0);
    }
    // At 500: one of another thread, then this thread's two (an allocation, then its free).
    t.r.pytorch_memory = {{500, 0x7f0000001000, 64, 64, 2 << 20, other, 0, kPytorchDeviceCuda},
                          {500, 0x7f0000002000, 512, 576, 2 << 20, th, 0, kPytorchDeviceCuda},
                          {500, 0x7f0000002000, -512, 64, 2 << 20, th, 0, kPytorchDeviceCuda},
                          {900, 0x5000, 8, 8, 0, th, -1, kPytorchDeviceCpu}};
    t.freeze();

    const auto d = eventDetails(t.r, {s, 0});
    CHECK(value(d, "Blocks/SM") == "0.030303");
    CHECK(value(d, "Warps/SM") == "0.121212");
    CHECK(value(d, "Est. achieved occupancy") == "24 %");
    const auto labelsOfPlain = labels(eventDetails(t.r, {plain, 0}));
    CHECK(std::count(labelsOfPlain.begin(), labelsOfPlain.end(), "Est. achieved occupancy") == 0);

    const auto allocation = instantDetails(t.r, {marks, 0});
    CHECK(value(allocation, "Device") == "CUDA 0");
    CHECK(value(allocation, "Bytes") == "512 B");
    CHECK(value(allocation, "Address") == "0x7F0000002000");
    CHECK(value(allocation, "Total allocated") == "576 B");
    CHECK(value(allocation, "Total reserved") == "2,097,152 B (2.10 MB)");
    CHECK(value(instantDetails(t.r, {marks, 1}), "Bytes") == "-512 B (a free)");
    const auto cpu = instantDetails(t.r, {marks, 2});
    CHECK(value(cpu, "Device") == "CPU");
    CHECK(value(cpu, "Address") == "0x5000");
}
