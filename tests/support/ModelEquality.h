#pragma once
#include <optional>
#include <string>

#include "model/Report.h"

namespace lanescope::test {

// The first difference between two reports, field by field over every field of a report but
// its derived cache (what a model file keeps), as "lanes[12].events.payload[40]: 7 vs 9";
// nullopt when they are equal. Numbers compare exactly (doubles bit for bit).
std::optional<std::string> firstDifference(const Report& a, const Report& b);

}  // namespace lanescope::test
