#include "app/gui/import/NvtxOnGpuLanes.h"

#include <spdlog/spdlog.h>

#include <string>

#include "analysis/DeferredLaneBytes.h"
#include "analysis/NvtxProjection.h"
#include "importers/cache/KeptResults.h"
#include "timeline/DeferredLanes.h"

namespace lanescope {

std::vector<DeferredLaneEvents> nvtxOnGpuLanes(const Report& report, size_t lane, unsigned workers) {
    if (!isDeferredLane(report, lane)) return {};
    const int32_t process = report.lanes[lane].process;
    const std::string name = "nvtx-gpu-lanes-" + std::to_string(process);
    const KeptResults& kept = KeptResults::of(report);
    if (const auto bytes = kept.load(name)) {
        if (auto lanes = decodeDeferredLanes(report, process, *bytes)) return std::move(*lanes);
        spdlog::warn("{}: kept NVTX-on-GPU lanes of process {} did not decode; projecting them again",
                     report.meta.source_path, process);
    }
    std::vector<DeferredLaneEvents> lanes = projectDeferredLanes(report, lane, workers);
    // Built before the report is settled, they go into its saved model instead (SaveModel.h).
    if (!DeferredLanes::of(report).settled()) return lanes;
    std::string error;
    if (!kept.store(name, encodeDeferredLanes(lanes), error) && !error.empty())
        spdlog::warn("{}: NVTX-on-GPU lanes not kept: {}", report.meta.source_path, error);
    return lanes;
}

std::string projectedSourcesName(size_t lane) { return "nvtx-gpu-sources-" + std::to_string(lane); }

std::optional<EventRef> keptNvtxOnGpuSource(const Report& report, size_t lane, uint32_t event) {
    if (lane >= report.lanes.size() || report.lanes[lane].kind != LaneKind::NvtxGpuProjection ||
        isDeferredLane(report, lane))
        return std::nullopt;  // nothing to read for this lane
    const auto bytes = KeptResults::of(report).load(projectedSourcesName(lane));
    return bytes ? decodeProjectedSource(report, lane, event, *bytes) : std::nullopt;
}

std::optional<EventRef> projectedNvtxRange(const Report& report, size_t lane, uint32_t event) {
    if (auto source = builtLaneSource(report, lane, event)) return source;
    return keptNvtxOnGpuSource(report, lane, event);
}

}  // namespace lanescope
