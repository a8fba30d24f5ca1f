#pragma once
#include <QColor>
#include <QPalette>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "model/Report.h"

namespace lanescope {

// Colours of the timeline's chrome, derived from the widget palette so light and dark
// desktops both read well.
struct TimelinePalette {
    bool dark = false;
    QColor background, alternateRow, headerBackground, headerText, groupText, grid, gridOpaque, rulerBackground,
        rulerText, selection, selectionEdge, hover, marker, mergedOutline, markedSample,
        pathEdge;  // the critical path's outline on the timeline (PathOverlay.h)
    static TimelinePalette from(const QPalette& palette);
};

// Colour of each event, cached per name: kernels in a blue family, memcpy by direction
// (HtoD green, DtoH red, DtoD purple, peer teal), memset amber, synchronizing CUDA calls red,
// other CUDA calls gold, OS runtime slate, NVTX in the report's colour or a hashed palette,
// MPI collectives orange and other MPI calls purple.
// Not thread-safe; one per report and view.
class EventColors {
public:
    explicit EventColors(const Report& report) : report_(report), byName_(report.strings.size(), 0) {}
    QRgb color(const Lane& lane, uint32_t event);
    // A darker or lighter variant for boxes standing for several merged events (cached).
    QRgb merged(QRgb color, bool dark);
    static QRgb textOn(QRgb background);
    static bool isSynchronizingCall(std::string_view name);
    // Thread states as Nsight Systems shows them: running green, blocked red, preempted amber,
    // not known grey. Threads on a CPU core row: a palette colour per thread.
    static QRgb threadStateColor(ThreadRunState state);

private:
    QRgb byKindAndName(EventKind kind, uint32_t name);
    const Report& report_;
    std::vector<QRgb> byName_;                  // by string id; 0 = not computed yet
    std::unordered_map<QRgb, QRgb> merged_[2];  // by source colour, for light and dark
};

}  // namespace lanescope
