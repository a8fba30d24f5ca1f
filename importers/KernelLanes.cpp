#include "importers/KernelLanes.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>

#include "importers/cache/OnThreads.h"

namespace lanescope {
namespace {

size_t kernelCount(const IntervalColumns& events) {
    return size_t(std::count(events.kind.begin(), events.kind.end(), EventKind::Kernel));
}

// Splits a stream lane holding `kernels` kernels among other events: the others go to the lane
// returned, of the same stream; the kernels and the instants stay.
Lane takeMemoryOperations(Lane& stream, size_t kernels) {
    const IntervalColumns& all = stream.events;
    IntervalColumns kept;
    kept.reserve(kernels);
    Lane memory = stream.rowOnly();
    memory.events.reserve(all.size() - kernels);
    for (size_t i = 0; i < all.size(); ++i) {
        IntervalColumns& to = all.kind[i] == EventKind::Kernel ? kept : memory.events;
        to.append(all.start_ns[i], all.endNs(i), all.name_id[i], all.payload[i], all.kind[i]);
    }
    stream.events = std::move(kept);
    return memory;
}

// Bytes of one event in the packed block: start_ns, duration_ns, name_id, payload, kind, depth.
constexpr size_t kPackedEventBytes = sizeof(int64_t) + 3 * sizeof(uint32_t) + sizeof(EventKind) + sizeof(uint8_t);

// Copies `column` to `at` and makes it a view of the copy, inside the block `owner` keeps alive.
template <typename T>
void moveInto(Column<T>& column, std::byte* at, const std::shared_ptr<const void>& owner, const std::byte* blockBegin,
              const std::byte* blockEnd) {
    const size_t n = column.size();
    if (n) std::memcpy(at, column.data(), n * sizeof(T));
    column = viewColumn(owner, blockBegin, blockEnd, reinterpret_cast<const T*>(at), n);
}

}  // namespace

void separateKernelLanes(Report& report, unsigned threads) {
    const size_t lanes = report.lanes.size();
    std::vector<std::optional<Lane>> split(lanes);  // the memory lane taken out of lane i
    cache::onThreads(threads, lanes, [&](size_t, size_t i) {
        Lane& lane = report.lanes[i];
        if (lane.kind != LaneKind::GpuStream) return;
        const size_t kernels = kernelCount(lane.events);
        if (kernels > 0 && kernels < lane.events.size()) split[i] = takeMemoryOperations(lane, kernels);
    });
    std::vector<size_t> kernelLanes, memoryLanes;  // indexes into report.lanes, in lane order
    for (size_t i = 0; i < lanes; ++i) {
        if (!isKernelLane(report.lanes[i])) continue;
        kernelLanes.push_back(i);
        if (split[i]) {
            memoryLanes.push_back(report.lanes.size());
            report.lanes.push_back(std::move(*split[i]));
        }
    }
    if (kernelLanes.empty()) return;
    std::vector<Lane> ordered;
    ordered.reserve(report.lanes.size());
    for (size_t i = 0; i < lanes; ++i) {
        if (i == kernelLanes.front()) {
            for (size_t k : kernelLanes) ordered.push_back(std::move(report.lanes[k]));
            for (size_t m : memoryLanes) ordered.push_back(std::move(report.lanes[m]));
        } else if (!std::binary_search(kernelLanes.begin(), kernelLanes.end(), i)) {
            ordered.push_back(std::move(report.lanes[i]));
        }
    }
    report.lanes = std::move(ordered);
}

void packKernelLanes(Report& report, unsigned threads) {
    std::vector<size_t> lanes;  // the kernel lanes, and where each one's events begin in the block
    std::vector<size_t> firstEvent;
    size_t events = 0;
    for (size_t i = 0; i < report.lanes.size(); ++i) {
        if (!isKernelLane(report.lanes[i])) continue;
        lanes.push_back(i);
        firstEvent.push_back(events);
        events += report.lanes[i].events.size();
    }
    if (lanes.size() < 2) return;  // one lane's columns are each one block already
    const size_t bytes = events * kPackedEventBytes;
    const std::shared_ptr<std::byte[]> block = std::make_shared_for_overwrite<std::byte[]>(bytes);
    const std::shared_ptr<const void> owner = block;
    std::byte* const begin = block.get();
    std::byte* const end = begin + bytes;
    // Where each column of the first lane goes: every column of all lanes, one after the other.
    std::byte* const starts = begin;
    std::byte* const durations = starts + events * sizeof(int64_t);
    std::byte* const names = durations + events * sizeof(uint32_t);
    std::byte* const payloads = names + events * sizeof(uint32_t);
    std::byte* const kinds = payloads + events * sizeof(uint32_t);
    std::byte* const depths = kinds + events * sizeof(EventKind);
    cache::onThreads(threads, lanes.size(), [&](size_t, size_t k) {
        IntervalColumns& e = report.lanes[lanes[k]].events;
        const size_t at = firstEvent[k];
        moveInto(e.start_ns, starts + at * sizeof(int64_t), owner, begin, end);
        moveInto(e.duration_ns, durations + at * sizeof(uint32_t), owner, begin, end);
        moveInto(e.name_id, names + at * sizeof(uint32_t), owner, begin, end);
        moveInto(e.payload, payloads + at * sizeof(uint32_t), owner, begin, end);
        moveInto(e.kind, kinds + at * sizeof(EventKind), owner, begin, end);
        moveInto(e.depth, depths + at * sizeof(uint8_t), owner, begin, end);
    });
}

}  // namespace lanescope
