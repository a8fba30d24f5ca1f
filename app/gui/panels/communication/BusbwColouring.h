#pragma once
#include <QObject>
#include <optional>
#include <utility>
#include <vector>

#include "app/gui/LatestTask.h"
#include "app/gui/ViewSession.h"
#include "timeline/Palette.h"

namespace lanescope {

// View > Colour NCCL by bus bandwidth: while on, the NCCL kernels of the open reports that have a
// busbw are drawn on the timeline (on their streams and on the NCCL rows) in lowToHighRamp's
// colours, on a log scale from the lowest busbw of the open reports (dark purple) to the highest
// (yellow); kernels without one keep their colour. Each report's busbw is its own collectives'
// (reportCollectives, kept with the report), read off the GUI thread, again when the reports
// change; the timeline then only looks each drawn kernel up (TimelineView::setKernelColours).
class BusbwColouring : public QObject {
    Q_OBJECT
public:
    explicit BusbwColouring(ViewSession* session, QObject* parent = nullptr);
    void setEnabled(bool on);
    bool enabled() const { return enabled_; }
    bool busy() const { return task_.busy(); }
    // The busbw (GB/s) at either end of the ramp once applied; nullopt when off or when no open
    // kernel has one.
    const std::optional<std::pair<double, double>>& range() const { return range_; }
    // The colour of a busbw in the range applied (the timeline's for a kernel of that busbw).
    static QRgb colourOf(double busbw_gbps, std::pair<double, double> range);

signals:
    void applied();  // the timeline's colours were set, or cleared

private:
    // Per open report its kernels' colours, and the range they span.
    struct Colours {
        std::vector<KernelColours> byReport;
        std::optional<std::pair<double, double>> range;
    };
    void compute();

    ViewSession* session_;
    bool enabled_ = false;
    std::optional<std::pair<double, double>> range_;
    LatestTask<Colours> task_{this};
};

}  // namespace lanescope
