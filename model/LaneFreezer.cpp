#include "model/LaneFreezer.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>

#include "model/DiagnosticKinds.h"

namespace lanescope {
namespace {

bool comesBefore(int64_t startA, int64_t durationA, int64_t startB, int64_t durationB) {
    if (startA != startB) return startA < startB;
    return durationA > durationB;  // longer first
}

bool isSorted(const IntervalColumns& ev) {
    for (size_t i = 1; i < ev.size(); ++i)
        if (comesBefore(ev.start_ns[i], ev.durationNs(i), ev.start_ns[i - 1], ev.durationNs(i - 1))) return false;
    return true;
}

// The column in `order`: a copy written once, its pages faulted in together.
template <typename T, typename Allocator>
void permute(std::vector<T, Allocator>& column, const std::vector<uint32_t>& order) {
    std::vector<T, Allocator> sorted;
    sorted.reserve(order.size());
    faultInUpTo(sorted, order.size());
    for (const uint32_t from : order) sorted.push_back(column[from]);
    column.swap(sorted);
}

// The position of each element after sorting by `order` (order[k]: the element that goes to k).
std::vector<uint32_t> positionsOf(const std::vector<uint32_t>& order) {
    std::vector<uint32_t> positions(order.size());
    for (size_t k = 0; k < order.size(); ++k) positions[order[k]] = uint32_t(k);
    return positions;
}

void sortEvents(IntervalColumns& ev, std::vector<uint32_t>* positions) {
    if (isSorted(ev)) return;
    std::vector<uint32_t> order(ev.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return comesBefore(ev.start_ns[a], ev.durationNs(a), ev.start_ns[b], ev.durationNs(b));
    });
    std::vector<LongDuration> longs;  // at their new indexes, in index order
    if (!ev.long_durations.empty())
        for (size_t k = 0; k < order.size(); ++k)
            if (ev.duration_ns[order[k]] == kLongDuration) longs.push_back({uint32_t(k), ev.durationNs(order[k])});
    ev.long_durations = std::move(longs);
    permute(ev.start_ns, order);
    permute(ev.duration_ns, order);
    permute(ev.name_id, order);
    permute(ev.payload, order);
    permute(ev.kind, order);
    if (positions) *positions = positionsOf(order);
}

constexpr size_t kMaxDepth = 254;  // so that depth_count (max + 1) fits in a uint8_t

// Stack of open events' end times; depth = stack height when the event starts.
uint8_t assignDepths(IntervalColumns& ev, uint64_t& overlaps, uint64_t& tooDeep) {
    ev.depth.assign(ev.size(), 0);
    std::vector<int64_t> openEnds;
    size_t maxDepth = 0;
    for (size_t i = 0; i < ev.size(); ++i) {
        const int64_t start = ev.start_ns[i];
        while (!openEnds.empty() && openEnds.back() <= start) openEnds.pop_back();
        const int64_t end = ev.endNs(i);
        if (!openEnds.empty() && end > openEnds.back()) ++overlaps;
        size_t depth = openEnds.size();
        if (depth > kMaxDepth) {  // hostile nesting: clamp (those may overlap) and count
            ++tooDeep;
            depth = kMaxDepth;
        }
        ev.depth[i] = static_cast<uint8_t>(depth);
        maxDepth = std::max(maxDepth, depth);
        openEnds.push_back(end);
    }
    return ev.size() == 0 ? 0 : static_cast<uint8_t>(maxDepth + 1);
}

// Counting sort of event indexes by depth, stable so each depth keeps start order. A lane
// of one depth is in that order already and keeps no depth_order.
void buildDepthIndex(Lane& lane) {
    const auto& depth = lane.events.depth;
    lane.depth_begin.assign(static_cast<size_t>(lane.depth_count) + 1, 0);
    for (uint8_t d : depth) ++lane.depth_begin[d + 1u];
    for (size_t d = 1; d < lane.depth_begin.size(); ++d) lane.depth_begin[d] += lane.depth_begin[d - 1];
    if (lane.depth_count <= 1) {
        lane.depth_order.clear();
        lane.depth_order.shrink_to_fit();
        return;
    }
    lane.depth_order.resize(depth.size());
    std::vector<uint32_t> next(lane.depth_begin.begin(), lane.depth_begin.end() - 1);
    for (size_t i = 0; i < depth.size(); ++i) lane.depth_order[next[depth[i]]++] = static_cast<uint32_t>(i);
}

void sortInstants(InstantColumns& in, std::vector<uint32_t>* positions) {
    if (std::is_sorted(in.time_ns.begin(), in.time_ns.end())) return;
    std::vector<uint32_t> order(in.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return in.time_ns[a] < in.time_ns[b]; });
    permute(in.time_ns, order);
    permute(in.name_id, order);
    permute(in.payload, order);
    if (positions) *positions = positionsOf(order);
}

template <typename... Columns>
void shrinkAll(Columns&... columns) {
    (columns.shrink_to_fit(), ...);
}

}  // namespace

void freezeLane(Lane& lane, Diagnostics& diagnostics, ColumnFit fit, FrozenPositions* positions) {
    IntervalColumns& ev = lane.events;
    sortEvents(ev, positions ? &positions->events : nullptr);
    uint64_t overlaps = 0, tooDeep = 0;
    lane.depth_count = assignDepths(ev, overlaps, tooDeep);
    if (overlaps)
        if (const auto diag = overlapWithoutNestingOf(lane.kind)) countDiagnostic(diagnostics, *diag, overlaps);
    if (tooDeep) countDiagnostic(diagnostics, deeperThan254Of(lane.kind), tooDeep);
    buildDepthIndex(lane);
    sortInstants(lane.instants, positions ? &positions->instants : nullptr);
    if (fit == ColumnFit::Shrink) shrinkAll(ev.start_ns, ev.duration_ns, ev.name_id, ev.payload, ev.kind, ev.depth);
    shrinkAll(ev.long_durations, lane.instants.time_ns, lane.instants.name_id, lane.instants.payload);
}

void freezeCounter(Counter& counter) {
    if (!std::is_sorted(counter.time_ns.begin(), counter.time_ns.end())) {
        std::vector<uint32_t> order(counter.time_ns.size());
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(),
                         [&](uint32_t a, uint32_t b) { return counter.time_ns[a] < counter.time_ns[b]; });
        permute(counter.time_ns, order);
        permute(counter.value, order);
    }
    shrinkAll(counter.time_ns, counter.value);
}

void setTimeSpan(Report& report) {
    int64_t begin = std::numeric_limits<int64_t>::max(), end = std::numeric_limits<int64_t>::min();
    for (const Lane& l : report.lanes) {
        if (!l.events.start_ns.empty()) {
            begin = std::min(begin, l.events.start_ns.front());  // sorted by start
            for (size_t i = 0; i < l.events.size(); ++i) end = std::max(end, l.events.endNs(i));
        }
        if (!l.instants.time_ns.empty()) {
            begin = std::min(begin, l.instants.time_ns.front());
            end = std::max(end, l.instants.time_ns.back());
        }
    }
    for (const Counter& c : report.counters)
        if (!c.time_ns.empty()) {
            begin = std::min(begin, c.time_ns.front());
            end = std::max(end, c.time_ns.back());
        }
    if (begin <= end) {
        report.meta.begin_ns = begin;
        report.meta.end_ns = end;
    }
}

}  // namespace lanescope
