#pragma once
// Hand-built reports for model tests that need no importer.
#include <string_view>

#include "model/LaneFreezer.h"
#include "model/Report.h"

namespace lanescope::test {

struct TinyReport {
    Report r;

    int32_t process(int64_t pid, std::string_view name) {
        r.processes.push_back({pid, r.strings.intern(name)});
        return static_cast<int32_t>(r.processes.size() - 1);
    }
    int32_t thread(int32_t process, int64_t tid, std::string_view name) {
        r.threads.push_back({tid, process, r.strings.intern(name)});
        return static_cast<int32_t>(r.threads.size() - 1);
    }
    int32_t gpu(int64_t device, std::string_view name) {
        r.gpus.push_back({device, r.strings.intern(name)});
        return static_cast<int32_t>(r.gpus.size() - 1);
    }
    uint32_t cpuLane(LaneKind kind, int32_t thread, std::string_view name) {
        Lane lane;
        lane.kind = kind;
        lane.name_id = r.strings.intern(name);
        lane.thread = thread;
        lane.process = r.threads[static_cast<size_t>(thread)].process;
        r.lanes.push_back(std::move(lane));
        return static_cast<uint32_t>(r.lanes.size() - 1);
    }
    uint32_t gpuLane(LaneKind kind, int32_t process, int32_t gpu, int64_t stream, std::string_view name) {
        Lane lane;
        lane.kind = kind;
        lane.name_id = r.strings.intern(name);
        lane.process = process;
        lane.gpu = gpu;
        lane.stream_id = stream;
        r.lanes.push_back(std::move(lane));
        return static_cast<uint32_t>(r.lanes.size() - 1);
    }
    // Appends an event; call freeze() once all are in (indexes are then in start order).
    void event(uint32_t lane, int64_t start, int64_t end, std::string_view name, EventKind kind,
               uint32_t payload = kNoPayload) {
        IntervalColumns& ev = r.lanes[lane].events;
        ev.append(start, end, r.strings.intern(name), payload, kind);
    }
    uint32_t kernel(uint32_t correlation, const KernelConfig& config = {}) {
        r.kernel_configs.push_back(config);
        r.kernels.push_back({static_cast<uint32_t>(r.kernel_configs.size() - 1), correlation});
        return static_cast<uint32_t>(r.kernels.size() - 1);
    }
    uint32_t memcpy(const MemcpyInfo& info) {
        r.memcpys.push_back(info);
        return static_cast<uint32_t>(r.memcpys.size() - 1);
    }
    uint32_t memset(const MemsetInfo& info) {
        r.memsets.push_back(info);
        return static_cast<uint32_t>(r.memsets.size() - 1);
    }
    uint32_t nvtx(const NvtxInfo& info) {
        r.nvtx.push_back(info);
        return static_cast<uint32_t>(r.nvtx.size() - 1);
    }
    void freeze() {
        for (Lane& lane : r.lanes) freezeLane(lane, r.diagnostics);
    }
};

}  // namespace lanescope::test
