#pragma once
#include <cstdint>
#include <vector>

#include "model/Lane.h"

namespace lanescope {

// Every event's end, in event order: what tests compare against.
inline std::vector<int64_t> endsOf(const IntervalColumns& ev) {
    std::vector<int64_t> ends(ev.size());
    for (size_t i = 0; i < ev.size(); ++i) ends[i] = ev.endNs(i);
    return ends;
}

}  // namespace lanescope
