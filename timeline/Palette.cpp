#include "timeline/Palette.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

#include "model/MpiCall.h"

namespace lanescope {
namespace {

uint32_t hashOf(std::string_view s) {
    uint32_t h = 2166136261u;
    for (unsigned char c : s) h = (h ^ c) * 16777619u;
    return h;
}

// A qualitative palette that reads on light and dark backgrounds.
constexpr std::array<QRgb, 12> kNvtxPalette = {0xFF4E79A7, 0xFFF28E2B, 0xFFE15759, 0xFF76B7B2, 0xFF59A14F, 0xFFEDC948,
                                               0xFFB07AA1, 0xFFFF9DA7, 0xFF9C755F, 0xFFBAB0AC, 0xFF86BCB6, 0xFFD4A6C8};

// OpenMP events by what their name says they are: waiting (barriers, taskwaits, lock and
// critical-section waits) red, mutual exclusion (critical, lock, ordered, atomic) amber,
// parallel regions blue, tasks teal, work sharing (loops, sections, single) green.
QRgb openMpColor(std::string_view name) {
    auto has = [&](std::string_view word) { return name.find(word) != std::string_view::npos; };
    if (has("Barrier") || has("Barrlier") || has("Wait") || has("wait")) return 0xFFD0584A;
    if (has("Critical") || has("Lock") || has("Ordered") || has("Atomic") || has("Mutex")) return 0xFFE0A43A;
    if (has("Parallel")) return 0xFF4E79A7;
    if (has("Task")) return 0xFF4FA6A0;
    if (has("Loop") || has("Section") || has("Single") || has("Workshare") || has("Distribute")) return 0xFF6BAF5A;
    return 0xFF9A9A9A;
}

}  // namespace

TimelinePalette TimelinePalette::from(const QPalette& p) {
    TimelinePalette t;
    const QColor base = p.color(QPalette::Base);
    t.dark = base.lightness() < 128;
    t.background = base;
    t.alternateRow = t.dark ? base.lighter(115) : base.darker(104);
    t.headerBackground = p.color(QPalette::Window);
    t.headerText = p.color(QPalette::WindowText);
    t.groupText = p.color(QPalette::WindowText);
    t.grid = t.dark ? QColor(255, 255, 255, 28) : QColor(0, 0, 0, 24);
    t.gridOpaque = t.dark ? base.lighter(130) : base.darker(110);  // drawn behind events
    t.rulerBackground = p.color(QPalette::Window);
    t.rulerText = p.color(QPalette::WindowText);
    t.selection = t.dark ? QColor(120, 170, 255, 50) : QColor(40, 110, 240, 40);
    t.selectionEdge = t.dark ? QColor(140, 190, 255) : QColor(30, 90, 210);
    t.hover = t.dark ? QColor(255, 255, 255) : QColor(0, 0, 0);
    t.marker = QColor(230, 60, 160);
    t.mergedOutline = t.dark ? QColor(255, 255, 255, 60) : QColor(0, 0, 0, 50);
    t.markedSample = t.dark ? QColor(255, 170, 40) : QColor(240, 100, 0);  // samples marked from the Call tree
    t.pathEdge = t.dark ? QColor(255, 200, 60) : QColor(225, 120, 0);
    return t;
}

bool EventColors::isSynchronizingCall(std::string_view n) {
    if (n.find("Synchronize") != std::string_view::npos) return true;
    // Blocking copies and sets: cudaMemcpy, cudaMemcpy2D..., cuMemcpyHtoD... without "Async".
    const bool copyOrSet = n.starts_with("cudaMemcpy") || n.starts_with("cuMemcpy") || n.starts_with("cudaMemset") ||
                           n.starts_with("cuMemset");
    return copyOrSet && n.find("Async") == std::string_view::npos;
}

QRgb EventColors::byKindAndName(EventKind kind, uint32_t nameId) {
    const std::string_view name = report_.str(nameId);
    const uint32_t h = hashOf(name);
    switch (kind) {
        case EventKind::Kernel:
            return QColor::fromHsl(200 + int(h % 30), 150 + int(h / 30 % 60), 120 + int(h / 1800 % 50)).rgb();
        case EventKind::Memcpy:
            if (name.find("Host-to-Device") != std::string_view::npos) return 0xFF3DA44D;
            if (name.find("Device-to-Host") != std::string_view::npos) return 0xFFD9534F;
            if (name.find("Device-to-Device") != std::string_view::npos) return 0xFF8E6BBF;
            if (name.find("Peer-to-Peer") != std::string_view::npos) return 0xFF1FA5A5;
            return 0xFF9A9A9A;
        case EventKind::Memset:
            return 0xFFC9A227;
        case EventKind::CudaApiCall:
            return isSynchronizingCall(name) ? 0xFFE0533D : 0xFFD8B25A;
        case EventKind::OsRuntimeCall:
            return 0xFF8596A8;
        case EventKind::Sync:
            return 0xFFC0392B;
        case EventKind::NvtxRange:
            return kNvtxPalette[h % kNvtxPalette.size()];
        case EventKind::MpiCall: {  // collectives orange family, the rest purple family
            const MpiCallClass c = classifyMpiCall(name);
            return c == MpiCallClass::Collective || c == MpiCallClass::NonblockingCollective
                       ? QColor::fromHsl(25 + int(h % 15), 180, 120).rgb()
                       : QColor::fromHsl(275 + int(h % 20), 110, 130).rgb();
        }
        case EventKind::OpenMpEvent:
            return openMpColor(name);
        case EventKind::GraphExecution:  // teal, apart from the kernels' blues
            return QColor::fromHsl(170 + int(h % 15), 140, 105).rgb();
        case EventKind::ProfilerOverhead:
            return 0xFF7A6F9B;
        case EventKind::GpuPageFault:
            return 0xFFE07B39;
        case EventKind::ThreadState:
        case EventKind::CoreRun:
            break;  // by payload, in color()
    }
    return 0xFF999999;
}

QRgb EventColors::threadStateColor(ThreadRunState state) {
    switch (state) {
        case ThreadRunState::Running:
            return 0xFF3FA34D;
        case ThreadRunState::Blocked:
            return 0xFFC8553D;
        case ThreadRunState::Preempted:
            return 0xFFE9B23A;
        case ThreadRunState::Unknown:
            break;
    }
    return 0xFFB4B9C0;
}

QRgb EventColors::color(const Lane& lane, uint32_t event) {
    const EventKind kind = lane.events.kind[event];
    if (kind == EventKind::ThreadState) return threadStateColor(threadStateOf(lane.events.payload[event]));
    if (kind == EventKind::CoreRun) return kNvtxPalette[lane.events.payload[event] % kNvtxPalette.size()];
    if (kind == EventKind::NvtxRange) {
        const uint32_t row = lane.events.payload[event];
        if (row < report_.nvtx.size() && report_.nvtx[row].has_color) return report_.nvtx[row].color | 0xFF000000u;
    }
    const uint32_t name = lane.events.name_id[event];
    if (name >= byName_.size()) return byKindAndName(kind, name);
    QRgb& cached = byName_[name];
    if (!cached) cached = byKindAndName(kind, name);
    return cached;
}

QRgb EventColors::kernelColour(const Lane& lane, uint32_t event, QRgb own) const {
    if (event >= lane.events.size() || lane.events.kind[event] != EventKind::Kernel) return own;
    const uint32_t row = lane.events.payload[event];
    const auto at = std::lower_bound(kernelColours_.kernel.begin(), kernelColours_.kernel.end(), row);
    if (at == kernelColours_.kernel.end() || *at != row) return own;
    return kernelColours_.colour[size_t(at - kernelColours_.kernel.begin())];
}

QRgb lowToHighRamp(double t) {
    // Viridis at nine evenly spaced points, linearly interpolated between them.
    static constexpr std::array<QRgb, 9> kStops = {0xFF440154, 0xFF472D7B, 0xFF3B528B, 0xFF2C728E, 0xFF21918C,
                                                   0xFF28AE80, 0xFF5EC962, 0xFFADDC30, 0xFFFDE725};
    const double x = std::clamp(std::isnan(t) ? 0.0 : t, 0.0, 1.0) * double(kStops.size() - 1);
    const size_t i = std::min(size_t(x), kStops.size() - 2);
    const double f = x - double(i);
    auto mix = [f](int a, int b) { return int(std::lround(a + (b - a) * f)); };
    const QRgb a = kStops[i], b = kStops[i + 1];
    return qRgb(mix(qRed(a), qRed(b)), mix(qGreen(a), qGreen(b)), mix(qBlue(a), qBlue(b)));
}

QRgb EventColors::merged(QRgb color, bool dark) {
    auto [it, inserted] = merged_[dark].try_emplace(color, 0);
    if (inserted) it->second = (dark ? QColor(color).darker(135) : QColor(color).lighter(125)).rgb();
    return it->second;
}

QRgb EventColors::textOn(QRgb background) {
    const double luminance = 0.2126 * qRed(background) + 0.7152 * qGreen(background) + 0.0722 * qBlue(background);
    return luminance > 150 ? 0xFF101010 : 0xFFFFFFFF;
}

}  // namespace lanescope
