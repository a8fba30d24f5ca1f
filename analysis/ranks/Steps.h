#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "model/Find.h"
#include "model/Report.h"

namespace lanescope {

// One training or inference step as the program marked it: an NVTX range or PyTorch
// annotation named "step 12", "Step_12", "ProfilerStep#12", ... Times in ns on the
// report's own timeline.
struct StepRange {
    int64_t number = 0;  // the number in its name
    int64_t start_ns = 0;
    int64_t end_ns = 0;
    EventRef range;
};

// The step number in a range name, or -1 when the name is not a step's (case-insensitive
// "step" or "profilerstep", optional separators ' ', '#', '_', ':', '-', then digits, nothing else).
int64_t stepNumber(std::string_view name);

// The steps of a report, sorted by start_ns: from the NVTX lane (CPU thread) with the most
// step ranges, at the outermost depth where they occur there. Empty when nothing is named so.
// With `process` (an index into Report::processes), that process's lanes only.
std::vector<StepRange> findSteps(const Report& report, int32_t process = -1);

}  // namespace lanescope
