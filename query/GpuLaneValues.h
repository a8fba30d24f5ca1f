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

// The greenContextId nsys writes for an activity record of a lane: 0 for a context that is not
// a green one in a report that records which are (2025 on: every kernel, copy, memset, CUDA
// event and graph launch of the corpus's 2025.3 reports records 0, event field 9,
// docs/nsys-rep-format.md); nullopt for a green context's, whose id the model does not keep, in
// a report that does not record green contexts (before 2025, whose export has NULL), and in a
// report not recorded by Nsight Systems. Unified-memory migrations record none: their callers
// give nullopt.
inline std::optional<int64_t> greenContextIdOf(const Report& report, const Lane& lane) {
    if (report.cuda_contexts.empty()) return std::nullopt;
    for (const CudaContext& c : report.cuda_contexts) {
        if (c.is_green_context == kNotRecorded) return std::nullopt;
        if (c.context_id == lane.context_id && c.is_green_context != 0 &&
            (lane.process < 0 || c.pid == report.processes[size_t(lane.process)].pid))
            return std::nullopt;
    }
    return 0;
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
