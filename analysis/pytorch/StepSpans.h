#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "model/Report.h"

namespace lanescope {

// What the PyTorch overview reads in an event's name (docs/analyses.md, "PyTorch overview").
enum class OverviewName : uint8_t { Plain, ProfilerStep, DataLoader };
OverviewName overviewNameOf(std::string_view name);

// overviewNameOf by name id, each name looked at once.
class OverviewNames {
public:
    explicit OverviewNames(const Report& report);
    OverviewName of(uint32_t nameId);

private:
    const Report& report_;
    std::vector<uint8_t> known_;  // by name id: 0 not yet looked at, else OverviewName + 1
};

// One step of a PyTorch trace: the wall-clock span the overview splits, on the report's
// timeline in ns.
struct StepSpan {
    uint32_t name_id = 0;  // into Report::strings: the ProfilerStep#N range (unused for the whole trace)
    int64_t start_ns = 0, end_ns = 0;
};

// The steps of a report (docs/analyses.md, "PyTorch overview"): the ProfilerStep#N ranges of
// its CPU threads' Nvtx lanes, each span from its CPU range's start (or the previous step's
// end, when later) to its end, or to the end of the last GPU work launched inside it, when later.
struct StepSpans {
    // In step order (the CPU ranges' starts), disjoint, each starting at or after the previous
    // one's end. Empty only for a report without events.
    std::vector<StepSpan> steps;
    bool whole_trace = false;  // no ProfilerStep#N range: one step, the report's span
};
StepSpans stepSpans(const Report& report);

}  // namespace lanescope
