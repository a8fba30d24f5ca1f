#pragma once
#include <string>
#include <vector>

#include "analysis/ranks/RankCompare.h"
#include "analysis/ranks/RankInput.h"

namespace lanescope::cli {

// `lanescope-cli compare --format json` of a comparison of `inputs` (CLI.md names its keys);
// also the Python module's lanescope.compare().
std::string compareJson(const std::vector<RankInput>& inputs, const RankComparison& c);

}  // namespace lanescope::cli
