#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "model/Report.h"

namespace lanescope {

// The categories a step's time is given to (docs/analyses.md, "PyTorch overview"), highest
// priority first; Other takes the rest.
enum class StepCategory : uint8_t { Kernel, Memcpy, Memset, Runtime, DataLoader, CpuExec };
inline constexpr size_t kStepCategories = 6;

// Per category (StepCategory order), per window: the ns of the window given to it, each
// instant of a window going to the highest-priority category with an event over it. Windows
// are [start, end) in ns, disjoint and sorted by start. One sweep over the lanes' events in
// start order (merged across lanes): O(n log lanes), no interval lists.
std::array<std::vector<int64_t>, kStepCategories> splitStepTime(
    const Report& report, const std::vector<std::pair<int64_t, int64_t>>& windows);

}  // namespace lanescope
