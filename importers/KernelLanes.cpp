#include "importers/KernelLanes.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <optional>

#include "importers/cache/OnThreads.h"

namespace lanescope {
namespace {

size_t kernelCount(const IntervalColumns& events) {
    return size_t(std::count(events.kind.begin(), events.kind.end(), EventKind::Kernel));
}

// Splits a stream lane holding `kernels` kernels among other events: the others go to the lane
// returned, of the same stream; the kernels stay, moved down in place in their order, and so do
// the instants. (Reading event i before writing at k <= i, no event is overwritten unread.)
Lane takeMemoryOperations(Lane& stream, size_t kernels) {
    IntervalColumns& e = stream.events;
    Lane memory = stream.rowOnly();
    memory.events.reserve(e.size() - kernels);
    std::vector<LongDuration> keptLongs;
    size_t k = 0;
    for (size_t i = 0; i < e.size(); ++i) {
        if (e.kind[i] != EventKind::Kernel) {
            memory.events.append(e.start_ns[i], e.endNs(i), e.name_id[i], e.payload[i], e.kind[i]);
            continue;
        }
        if (e.duration_ns[i] == kLongDuration) keptLongs.push_back({uint32_t(k), e.durationNs(i)});
        e.start_ns[k] = e.start_ns[i];
        e.duration_ns[k] = e.duration_ns[i];
        e.name_id[k] = e.name_id[i];
        e.payload[k] = e.payload[i];
        e.kind[k] = e.kind[i];
        ++k;
    }
    e.start_ns.resize(k);
    e.duration_ns.resize(k);
    e.name_id.resize(k);
    e.payload.resize(k);
    e.kind.resize(k);
    e.depth.clear();  // freezing assigns the depths
    e.long_durations = std::move(keptLongs);
    return memory;
}

// Bytes of one event in the packed block: start_ns, duration_ns, name_id, payload, kind, depth.
constexpr size_t kPackedEventBytes = sizeof(int64_t) + 3 * sizeof(uint32_t) + sizeof(EventKind) + sizeof(uint8_t);

// A block of `bytes` bytes, aligned to 2 MiB and advised to take huge pages where the system
// lets a program ask (transparent huge pages "madvise" or "always"): filling it then faults once
// every 2 MiB instead of every 4 KiB, which halves the time of packing a large report.
std::shared_ptr<std::byte> hugePageBlock(size_t bytes) {
    constexpr size_t kHugePage = size_t{2} << 20;
    const size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* memory = std::aligned_alloc(kHugePage, rounded);
    if (!memory) throw std::bad_alloc();
    madvise(memory, rounded, MADV_HUGEPAGE);  // advice only: without it, pages of 4 KiB
    return {static_cast<std::byte*>(memory), [](std::byte* p) { std::free(p); }};
}

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
    std::vector<uint32_t> newIndex(report.lanes.size());  // of each lane, by its index before
    auto move = [&](size_t from) {
        newIndex[from] = uint32_t(ordered.size());
        ordered.push_back(std::move(report.lanes[from]));
    };
    for (size_t i = 0; i < lanes; ++i) {
        if (i == kernelLanes.front()) {
            for (size_t k : kernelLanes) move(k);
            for (size_t m : memoryLanes) move(m);
        } else if (!std::binary_search(kernelLanes.begin(), kernelLanes.end(), i)) {
            move(i);
        }
    }
    report.lanes = std::move(ordered);
    renumberLanes(report.file_order, newIndex);
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
    if (lanes.empty()) return;
    const size_t bytes = events * kPackedEventBytes;
    const std::shared_ptr<std::byte> block = hugePageBlock(bytes);
    const std::shared_ptr<const void> owner = block;
    std::byte* const begin = block.get();
    std::byte* const end = begin + bytes;
    // The block holds every lane's start_ns, then every lane's duration_ns, and so on, each in lane order.
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
