#include "query/FileOrderRows.h"

namespace lanescope::sql {

int64_t FileOrderRows::startNs(size_t segment, uint32_t row) const {
    const Lane& l = lane(segment);
    const uint32_t e = event(segment, row);
    return instants(segment) ? l.instants.time_ns[e] : l.events.start_ns[e];
}

std::vector<FileOrderRun> FileOrderRows::inLaneOrder() const {
    std::vector<FileOrderRun> runs;
    for (const bool instants : {false, true}) {
        if ((instants && parts_ == Parts::Events) || (!instants && parts_ == Parts::Instants)) continue;
        for (size_t l = 0; l < report_.lanes.size(); ++l) {
            const Lane& lane = report_.lanes[l];
            const size_t size = instants ? lane.instants.size() : lane.events.size();
            if (picks_(lane) && size > 0) runs.push_back({uint32_t(l), 0, uint32_t(size), instants});
        }
    }
    return runs;
}

}  // namespace lanescope::sql
