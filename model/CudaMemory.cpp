#include "model/CudaMemory.h"

#include <algorithm>
#include <cstdio>

#include "model/EventDetails.h"

namespace lanescope {

bool isCudaMemoryCounter(const Report& report, const Counter& counter) {
    return counter.process >= 0 && !counter.derived && report.str(counter.name_id) == "CUDA memory usage";
}

std::vector<uint32_t> cudaMemoryEventsAt(const Report& report, const Counter& counter, int64_t time_ns) {
    const auto& events = report.cuda_memory_events;
    const auto first = std::lower_bound(events.begin(), events.end(), time_ns,
                                        [](const CudaMemoryEvent& e, int64_t t) { return e.time_ns < t; });
    std::vector<uint32_t> rows;
    for (auto it = first; it != events.end() && it->time_ns == time_ns; ++it)
        if (it->process == counter.process && it->gpu == counter.gpu)
            rows.push_back(static_cast<uint32_t>(it - events.begin()));
    return rows;
}

std::optional<EventRef> cudaMemoryCall(const Report& report, const CudaMemoryEvent& event) {
    if (event.correlation_id == 0) return std::nullopt;
    for (size_t li = 0; li < report.lanes.size(); ++li) {
        const Lane& lane = report.lanes[li];
        if (lane.kind != LaneKind::CudaApi || lane.process != event.process) continue;
        // Calls of one thread do not overlap at depth 0: the one holding the time starts at or
        // before it, and is the last such call or nests in it (a driver call inside a runtime
        // call), so the few calls before the time are enough.
        const auto& starts = lane.events.start_ns;
        size_t i = static_cast<size_t>(std::upper_bound(starts.begin(), starts.end(), event.time_ns) - starts.begin());
        for (size_t looked = 0; i > 0 && looked < 16; ++looked) {
            --i;
            if (lane.events.payload[i] == event.correlation_id && lane.events.endNs(i) >= event.time_ns)
                return EventRef{static_cast<uint32_t>(li), static_cast<uint32_t>(i)};
        }
    }
    return std::nullopt;
}

std::string describeCudaMemoryEvent(const Report& report, const CudaMemoryEvent& event) {
    char address[32];
    std::snprintf(address, sizeof address, "0x%llx", static_cast<unsigned long long>(event.address));
    std::string text = std::string(event.freed ? "Free of " : "Allocation of ") + detailBytes(event.bytes) + ", " +
                       memKindLabel(event.mem_kind) + ", at " + address;
    if (event.name_id != kNoVariableName) text += ", " + std::string(report.str(event.name_id));
    return text;
}

}  // namespace lanescope
