#pragma once
// Lanescope's own Perfetto exports give each slice its event kind as its category and its
// details as debug annotations (the labels and display values of model/EventDetails). These
// functions name the categories for the writer and read both back for the importer, so that
// an export reimports with the kinds, side tables and correlation ids it was written from.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "formats/perfetto/PerfettoConventions.h"
#include "model/Report.h"

namespace lanescope {

// One slice's debug annotations as (label, display value), in the order they were written.
using SliceAnnotations = std::vector<std::pair<std::string, std::string>>;

// Rebuilds side-table rows from annotations. Kernel configurations and NVTX attributes are
// shared by the slices that have equal ones, as the other importers share them; the maps
// below remember the rows made so far, keyed by the annotations' text.
class SliceDetailsReader {
public:
    explicit SliceDetailsReader(Report& report) : r_(report) {}
    // Appends the side-table row of a slice of `kind` (fields missing or unreadable keep the
    // row's defaults) and returns the slice's payload: the row, the correlation id of a CUDA
    // API call (kNoPayload without one), kNoPayload for an OS runtime call.
    uint32_t payload(EventKind kind, const SliceAnnotations& annotations);

private:
    uint32_t kernelConfig(const SliceAnnotations& annotations);
    uint32_t nvtxRow(const SliceAnnotations& annotations);

    Report& r_;
    std::unordered_map<std::string, uint32_t> configs_;  // annotation text -> kernel_configs row
    std::unordered_map<std::string, uint32_t> nvtx_;     // annotation text -> nvtx row
};

}  // namespace lanescope
