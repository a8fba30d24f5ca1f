#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope::nsysrep {

// One row of nsys's META_DATA_CAPTURE: a capture setting's name and its value as text.
struct CaptureSetting {
    std::string name;
    std::string value;
};

// The capture settings of a report, in the export's row order, from the bytes of its `Analysis
// Options Data` section (see docs/nsys-rep-format.md). `base` is the section's offset in the file
// (for error messages). Throws MalformedProto (importers/nsysrep/ProtoReader.h) on a damaged
// message. Learnt by comparing reports of nsys 2020.5 to 2025.3 with their nsys 2025.3 exports:
// equal row for row on all 19 pairs of the corpus.
std::vector<CaptureSetting> readCaptureSettings(std::string_view section, uint64_t base);

}  // namespace lanescope::nsysrep
