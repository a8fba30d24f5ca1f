#pragma once
#include <QColor>
#include <QPalette>
#include <cstdint>
#include <unordered_map>
#include <utility>
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

// Colours that replace some kernels' own (the viewer's "Colour NCCL by bus bandwidth"), by row
// of Report::kernels (a Kernel event's payload, the same for a kernel on its stream and its copy
// on the NCCL row): `kernel` ascending, `colour` (0xAARRGGBB) alongside.
struct KernelColours {
    std::vector<uint32_t> kernel;
    std::vector<QRgb> colour;
    size_t size() const { return kernel.size(); }
};

// A sequential ramp for a value from low (t = 0: dark purple) to high (t = 1: yellow), through
// blue and green (viridis: ordered in lightness, readable by colour-blind eyes); t is clamped.
QRgb lowToHighRamp(double t);

// Colour of each event, cached per name: kernels in a blue family, memcpy by direction
// (HtoD green, DtoH red, DtoD purple, peer teal), memset amber, synchronizing CUDA calls red,
// other CUDA calls gold, OS runtime slate, NVTX in the report's colour or a hashed palette,
// MPI collectives orange and other MPI calls purple.
// Not thread-safe; one per report and view.
class EventColors {
public:
    explicit EventColors(const Report& report) : report_(report), byName_(report.strings.size(), 0) {}
    QRgb color(const Lane& lane, uint32_t event);
    // Kernels drawn in colours of their own instead (KernelColours); empty: none.
    void setKernelColours(KernelColours colours) { kernelColours_ = std::move(colours); }
    bool hasKernelColours() const { return kernelColours_.size() > 0; }
    // The colour KernelColours gives `event` of `lane` when it is a kernel listed there, else `own`.
    QRgb kernelColour(const Lane& lane, uint32_t event, QRgb own) const;
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
    KernelColours kernelColours_;
};

}  // namespace lanescope
