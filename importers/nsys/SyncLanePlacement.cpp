#include "importers/nsys/SyncLanePlacement.h"

#include <map>
#include <utility>

namespace lanescope::nsys {

void placeSyncLanesOnTheirContextsGpu(Report& report) {
    // (process, context id) -> the GPU of its stream lanes; kSeveral when they are on more than one.
    constexpr int32_t kSeveral = -2;
    std::map<std::pair<int32_t, int64_t>, int32_t> gpuOfContext;
    for (const Lane& lane : report.lanes) {
        if (lane.kind != LaneKind::GpuStream || lane.context_id < 0 || lane.gpu < 0) continue;
        const auto [it, inserted] = gpuOfContext.try_emplace({lane.process, lane.context_id}, lane.gpu);
        if (!inserted && it->second != lane.gpu) it->second = kSeveral;
    }
    for (Lane& lane : report.lanes) {
        if (lane.kind != LaneKind::CudaSync || lane.context_id < 0 || lane.gpu < 0) continue;
        const auto it = gpuOfContext.find({lane.process, lane.context_id});
        if (it == gpuOfContext.end() || it->second == kSeveral || it->second == lane.gpu) continue;
        lane.recorded_gpu = lane.gpu;
        lane.gpu = it->second;
    }
}

}  // namespace lanescope::nsys
