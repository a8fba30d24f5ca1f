#pragma once
#include <string>
#include <vector>

namespace lanescope::cli {

// Left-aligned text columns (numbers right-aligned), long cells cut at `maxWidth` with "…".
std::string renderTextTable(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
                            const std::vector<bool>& numeric, size_t maxWidth = 80);

}  // namespace lanescope::cli
