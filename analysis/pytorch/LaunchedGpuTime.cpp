// The GPU time launched inside the events of a CPU thread's lane, through correlation.
#include "analysis/pytorch/LaunchedGpuTime.h"

#include "analysis/pytorch/ThreadNesting.h"
#include "model/Correlation.h"

namespace lanescope {

std::vector<int64_t> launchedGpuSelfNs(const Report& report, const Lane& ranges, uint32_t callsLane) {
    std::vector<int64_t> self(ranges.events.size(), 0);
    const IntervalColumns& calls = report.lanes[callsLane].events;
    const CorrelationIndex& correlation = correlationIndex(report);
    CorrelationIndex::Cursor cursor;  // the calls are looked up in time order
    forEachInnermostContaining(ranges.events, calls, [&](uint32_t call, uint32_t owner) {
        correlation.forEachLaunched({callsLane, call}, cursor, [&](EventRef op) {
            const IntervalColumns& gpu = report.lanes[op.lane].events;
            if (gpu.kind[op.index] != EventKind::GraphExecution) self[owner] += gpu.durationNs(op.index);
        });
    });
    return self;
}

std::vector<int64_t> withDescendants(const std::vector<uint32_t>& parent, std::vector<int64_t> own) {
    // Children follow their parents: from the last event back, each is complete when reached.
    for (size_t i = parent.size(); i-- > 0;)
        if (parent[i] != kNoEvent) own[parent[i]] += own[i];
    return own;
}

}  // namespace lanescope
