#pragma once
#include <cstdint>
#include <optional>

#include "model/Report.h"
#include "query/SqlValues.h"

namespace lanescope::sql {

// What nsys's GPU tables write in every row and the model keeps once per lane: the lane's CUDA
// device id, context id, stream id and process (as a GlobalId); nullopt where the lane has none.
enum class GpuLaneField { DeviceId, ContextId, StreamId, GlobalPid };
inline std::optional<int64_t> gpuLaneValue(const Report& report, const Lane& lane, GpuLaneField field) {
    switch (field) {
        case GpuLaneField::DeviceId: {
            const int32_t gpu = lane.recorded_gpu >= 0 ? lane.recorded_gpu : lane.gpu;  // as the rows wrote it
            if (gpu < 0) return std::nullopt;
            return report.gpus[size_t(gpu)].device_id;
        }
        case GpuLaneField::ContextId:
            return lane.context_id >= 0 ? std::optional<int64_t>(lane.context_id) : std::nullopt;
        case GpuLaneField::StreamId:
            return lane.stream_id >= 0 ? std::optional<int64_t>(lane.stream_id) : std::nullopt;
        case GpuLaneField::GlobalPid:
            return globalPidOf(report, lane.process);
    }
    return std::nullopt;
}

// Where a table has those columns: each one's index, -1 for one it lacks. fieldOf tells whether a
// column is one of them (a segment column of a table whose segments are lanes).
struct GpuLaneColumns {
    int device_id = -1, context_id = -1, stream_id = -1, global_pid = -1;
    constexpr std::optional<GpuLaneField> fieldOf(int column) const {
        if (column < 0) return std::nullopt;
        if (column == device_id) return GpuLaneField::DeviceId;
        if (column == context_id) return GpuLaneField::ContextId;
        if (column == stream_id) return GpuLaneField::StreamId;
        if (column == global_pid) return GpuLaneField::GlobalPid;
        return std::nullopt;
    }
};

}  // namespace lanescope::sql
