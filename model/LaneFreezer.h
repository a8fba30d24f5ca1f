#pragma once
#include "model/Lane.h"
#include "model/Report.h"

namespace lanescope {

// Where freezing put a lane's events and instants: the event appended at index i is at index
// events[i] of the frozen lane, the instant at index i at instants[i]; either is empty where
// freezing kept their order.
struct FrozenPositions {
    std::vector<uint32_t> events;
    std::vector<uint32_t> instants;
};

// Puts a lane filled in any order into its frozen form: events sorted by (start ascending,
// duration descending), depths assigned so that events at one depth never overlap (a
// child nests inside its parent; an event that overlaps without nesting goes one deeper
// and is counted as `<kind>_overlap_without_nesting`), instants sorted by time, and the
// columns shrunk to fit, unless `fit` is KeepCapacity: for a lane whose columns are moved next
// (importers/KernelLanes.h packs them), where shrinking would copy them once more. Runs in
// O(n log n), or O(n) when the input is already sorted. `positions`, when given, receives
// where the events and instants went.
enum class ColumnFit { Shrink, KeepCapacity };
void freezeLane(Lane& lane, Diagnostics& diagnostics, ColumnFit fit = ColumnFit::Shrink,
                FrozenPositions* positions = nullptr);

// Sorts a counter's samples by time (stable: equal times keep their order) and shrinks them.
void freezeCounter(Counter& counter);

// Sets meta.begin_ns/end_ns to the span of every event, instant and counter sample of the
// frozen lanes and counters; leaves them as they are when the report holds nothing.
void setTimeSpan(Report& report);

}  // namespace lanescope
