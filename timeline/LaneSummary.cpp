#include "timeline/LaneSummary.h"

#include <algorithm>

namespace lanescope {
namespace {

constexpr size_t kCompression = 16;   // a kept level has at most events / 16 units
constexpr size_t kEnoughUnits = 256;  // no coarser level past one this small
constexpr int kShiftStep = 4;         // levels 16 times apart
constexpr int kMaxShift = 60;

// The level of cell 2^shift ns made from the events at positions [begin, end).
SummaryLevel levelFromEvents(const Lane& lane, uint32_t begin, uint32_t end, int shift,
                             const std::function<uint32_t(uint32_t)>& colorOf) {
    SummaryLevel level;
    level.cell_shift = shift;
    const int64_t half = (int64_t(1) << shift) / 2;
    const IntervalColumns& ev = lane.events;
    for (uint32_t p = begin; p < end;) {
        const uint32_t i = lane.eventAtPosition(p);
        uint32_t last = i;
        level.first.push_back(p);
        level.start_ns.push_back(ev.start_ns[i]);
        level.color.push_back(colorOf(i));
        ++p;
        if (ev.durationNs(i) < half)
            for (const int64_t cell = ev.start_ns[i] >> shift; p < end; ++p) {
                const uint32_t j = lane.eventAtPosition(p);
                if (ev.durationNs(j) >= half || (ev.start_ns[j] >> shift) != cell) break;
                last = j;
            }
        level.end_ns.push_back(ev.endNs(last));
    }
    return level;
}

// The level of cell 2^shift ns made from a finer one: its units that may merge (runs, and
// single events shorter than half the new cell) grouped by the new cells. The same units as
// levelFromEvents at that shift, since a finer unit lies within one coarser cell.
SummaryLevel coarserLevel(const SummaryLevel& fine, uint32_t depthEnd, int shift) {
    SummaryLevel level;
    level.cell_shift = shift;
    const int64_t half = (int64_t(1) << shift) / 2;
    const size_t n = fine.size();
    auto mayMerge = [&](size_t u) {
        const uint32_t count = (u + 1 < n ? fine.first[u + 1] : depthEnd) - fine.first[u];
        return count > 1 || fine.end_ns[u] - fine.start_ns[u] < half;
    };
    for (size_t u = 0; u < n;) {
        size_t last = u;
        level.first.push_back(fine.first[u]);
        level.start_ns.push_back(fine.start_ns[u]);
        level.color.push_back(fine.color[u]);
        ++u;
        if (mayMerge(last))
            for (const int64_t cell = fine.start_ns[last] >> shift;
                 u < n && mayMerge(u) && (fine.start_ns[u] >> shift) == cell; ++u)
                last = u;
        level.end_ns.push_back(fine.end_ns[last]);
    }
    return level;
}

void shrink(SummaryLevel& level) {
    level.first.shrink_to_fit();
    level.start_ns.shrink_to_fit();
    level.end_ns.shrink_to_fit();
    level.color.shrink_to_fit();
}

DepthSummary summarizeDepth(const Lane& lane, uint32_t begin, uint32_t end, uint32_t minEvents,
                            const std::function<uint32_t(uint32_t)>& colorOf) {
    DepthSummary summary;
    const uint32_t n = end - begin;
    if (n < std::max<uint32_t>(minEvents, 1)) return summary;
    const int64_t span =
        lane.events.endNs(lane.eventAtPosition(end - 1)) - lane.events.start_ns[lane.eventAtPosition(begin)];
    // The first cell that could compress enough if the events were spread evenly.
    int shift = kShiftStep;
    while (shift < kMaxShift && uint64_t(span >> shift) * kCompression > n) shift += kShiftStep;
    SummaryLevel level = levelFromEvents(lane, begin, end, shift, colorOf);
    while (level.size() * kCompression > n && shift < kMaxShift) {  // clustered or long events: coarser
        shift += kShiftStep;
        level = coarserLevel(level, end, shift);
    }
    if (level.size() * kCompression > n) return summary;
    for (;;) {
        const bool last = level.size() <= kEnoughUnits || shift + kShiftStep > kMaxShift;
        shrink(level);
        summary.levels.push_back(std::move(level));
        if (last) break;
        shift += kShiftStep;
        level = coarserLevel(summary.levels.back(), end, shift);
    }
    return summary;
}

}  // namespace

size_t LaneSummary::memoryBytes() const {
    size_t bytes = sizeof(LaneSummary) + depths.capacity() * sizeof(DepthSummary);
    for (const DepthSummary& depth : depths)
        for (const SummaryLevel& level : depth.levels)
            bytes += sizeof(SummaryLevel) + (level.first.capacity() + level.color.capacity()) * sizeof(uint32_t) +
                     (level.start_ns.capacity() + level.end_ns.capacity()) * sizeof(int64_t);
    return bytes;
}

LaneSummary buildLaneSummary(const Lane& lane, const std::function<uint32_t(uint32_t)>& colorOf, uint32_t minEvents) {
    LaneSummary summary;
    summary.depths.reserve(lane.depth_count);
    for (size_t d = 0; d < lane.depth_count; ++d)
        summary.depths.push_back(
            summarizeDepth(lane, lane.depth_begin[d], lane.depth_begin[d + 1], minEvents, colorOf));
    return summary;
}

}  // namespace lanescope
