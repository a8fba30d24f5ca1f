#include <algorithm>

#include "model/Lane.h"

namespace lanescope {

size_t IntervalColumns::memoryBytes() const {
    return start_ns.capacity() * sizeof(int64_t) + duration_ns.capacity() * sizeof(uint32_t) +
           long_durations.capacity() * sizeof(LongDuration) + name_id.capacity() * sizeof(uint32_t) +
           payload.capacity() * sizeof(uint32_t) + kind.capacity() * sizeof(EventKind) +
           depth.capacity() * sizeof(uint8_t);
}

int64_t IntervalColumns::longDurationOf(size_t i) const {
    const auto it = std::lower_bound(long_durations.begin(), long_durations.end(), i,
                                     [](const LongDuration& d, size_t index) { return d.index < index; });
    return it != long_durations.end() && it->index == i ? it->duration_ns : int64_t{kLongDuration};
}

void IntervalColumns::append(int64_t start, int64_t end, uint32_t name, uint32_t payloadValue, EventKind kindValue) {
    start_ns.push_back(start);
    pushDuration(duration_ns, long_durations, end - start);
    name_id.push_back(name);
    payload.push_back(payloadValue);
    kind.push_back(kindValue);
}

void IntervalColumns::appendAll(IntervalColumns&& other) {
    const auto offset = uint32_t(size());
    start_ns.insert(start_ns.end(), other.start_ns.begin(), other.start_ns.end());
    duration_ns.insert(duration_ns.end(), other.duration_ns.begin(), other.duration_ns.end());
    for (const LongDuration& d : other.long_durations) long_durations.push_back({d.index + offset, d.duration_ns});
    name_id.insert(name_id.end(), other.name_id.begin(), other.name_id.end());
    payload.insert(payload.end(), other.payload.begin(), other.payload.end());
    kind.insert(kind.end(), other.kind.begin(), other.kind.end());
    other = IntervalColumns{};
}

void IntervalColumns::reserve(size_t events) {
    start_ns.reserve(events);
    duration_ns.reserve(events);
    name_id.reserve(events);
    payload.reserve(events);
    kind.reserve(events);
    depth.reserve(events);
}

}  // namespace lanescope
