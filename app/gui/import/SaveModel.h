#pragma once
#include <string>

#include "importers/cache/ReportCache.h"
#include "model/Report.h"

namespace lanescope {

// Saves `report`'s model under `key` in `cache` for reopening, with the deferred lanes built by
// then (timeline/DeferredLanes.h: the rows the window drew first) in place of their empty ones,
// so that a reopen draws those rows at once, and beside it (the report's KeptResults, attached
// under `key`) the NVTX range each of their events stands for, read when one is clicked. False
// with a one-line reason in `error` when the model is not saved (ReportCache::store).
bool saveModel(const ReportCache& cache, const Report& report, const std::string& key, std::string& error);

}  // namespace lanescope
