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

#include "model/Report.h"

namespace lanescope {

// The category of an exported slice of `kind`: "os_runtime", "cuda_api", "nvtx", "kernel",
// "memcpy", "memset" or "cuda_sync".
std::string_view perfettoCategory(EventKind kind);
// The kind that one of those categories names; nullopt for any other category.
std::optional<EventKind> eventKindOfPerfettoCategory(std::string_view category);

// The lane kind that holds events of `kind` (NVTX start/end ranges: NvtxStartEnd).
LaneKind laneKindOf(EventKind kind, bool nvtxStartEnd);
// The other way: the kind whose category an instant of a lane of `kind` carries, so that a
// lane holding only instants comes back as the same kind of lane (GPU streams: Kernel).
EventKind eventKindHeldBy(LaneKind kind);

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
