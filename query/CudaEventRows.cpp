#include "query/CudaEventRows.h"

namespace lanescope::sql {

CudaEventRows::Rows CudaEventRows::build() const {
    Rows rows;
    auto add = [&](uint32_t lane, uint32_t record) {
        if (rows.segments.empty() || rows.segments.back().lane != lane)
            rows.segments.push_back({lane, uint32_t(rows.records.size()), 0});
        rows.records.push_back(record);
        ++rows.segments.back().count;
    };
    const bool inFileOrder = report_.meta.format.starts_with("nsys");
    constexpr uint32_t kNoLane = UINT32_MAX;
    std::vector<uint32_t> laneOf(inFileOrder ? report_.cuda_events.size() : 0, kNoLane);  // by record
    for (uint32_t l = 0; l < report_.lanes.size(); ++l) {
        const Lane& lane = report_.lanes[l];
        if (lane.kind != LaneKind::GpuStream) continue;
        for (const uint32_t record : lane.instants.payload) {
            if (!inFileOrder)
                add(l, record);
            else if (record < laneOf.size())
                laneOf[record] = l;
        }
    }
    for (uint32_t record = 0; record < laneOf.size(); ++record)
        if (laneOf[record] != kNoLane) add(laneOf[record], record);
    return rows;
}

}  // namespace lanescope::sql
