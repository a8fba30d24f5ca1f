#include "app/gui/import/SaveModel.h"

#include <spdlog/spdlog.h>

#include <vector>

#include "analysis/DeferredLaneBytes.h"
#include "app/gui/import/NvtxOnGpuLanes.h"
#include "importers/cache/KeptResults.h"
#include "model/DeferredLane.h"
#include "timeline/DeferredLanes.h"

namespace lanescope {

bool saveModel(const ReportCache& cache, const Report& report, const std::string& key, std::string& error) {
    const DeferredLanes& deferred = DeferredLanes::of(report);
    // The lanes written in place of their empty ones; a lane built empty is left as it is
    // (deferred again on the next open). Read once: a lane built while the model is written
    // is kept beside it by its builder, as the report is settled by then.
    std::vector<const Lane*> replaced(report.lanes.size(), nullptr);  // by lane index
    for (size_t lane = 0; lane < report.lanes.size(); ++lane)
        if (const Lane* built = isDeferredLane(report, lane) ? deferred.ready(lane) : nullptr;
            built && built->events.size() > 0)
            replaced[lane] = built;
    if (!cache.store(report, key, error, [&](size_t lane) { return replaced[lane]; })) return false;
    // The ranges their events stand for, read when one is clicked (keptNvtxOnGpuSource).
    for (size_t lane = 0; lane < report.lanes.size(); ++lane) {
        if (!replaced[lane]) continue;
        std::string keepError;
        if (!KeptResults::of(report).store(projectedSourcesName(lane), encodeProjectedSources(deferred.sources(lane)),
                                           keepError) &&
            !keepError.empty())
            spdlog::warn("{}: the ranges of an NVTX-on-GPU row not kept: {}", report.meta.source_path, keepError);
    }
    return true;
}

}  // namespace lanescope
