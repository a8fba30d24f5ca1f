#include "app/gui/panels/communication/BusbwColouring.h"

#include <algorithm>
#include <cmath>

#include "app/gui/panels/communication/ReportCollectives.h"

namespace lanescope {
namespace {

// A report's NCCL kernels with a positive busbw: (row of Report::kernels, busbw GB/s), by row.
std::vector<std::pair<uint32_t, double>> kernelBusbw(const Report& report) {
    const CollectiveRows& rows = reportCollectives(report).rows;
    std::vector<std::pair<uint32_t, double>> out;
    for (size_t i = 0; i < rows.size(); ++i) {
        if (!std::isfinite(rows.busbw_gbps[i]) || rows.busbw_gbps[i] <= 0) continue;
        const uint32_t kernel = report.lanes[rows.lane[i]].events.payload[rows.event[i]];
        if (kernel != kNoPayload) out.emplace_back(kernel, rows.busbw_gbps[i]);
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

BusbwColouring::BusbwColouring(ViewSession* session, QObject* parent) : QObject(parent), session_(session) {
    connect(session_, &ViewSession::reportsChanged, this, [this] {
        range_.reset();  // setReports cleared the timeline's colours
        if (enabled_) compute();
    });
}

QRgb BusbwColouring::colourOf(double busbw_gbps, std::pair<double, double> range) {
    const double lo = std::log(range.first), hi = std::log(range.second);
    return lowToHighRamp(hi > lo ? (std::log(busbw_gbps) - lo) / (hi - lo) : 0.5);
}

void BusbwColouring::setEnabled(bool on) {
    if (on == enabled_) return;
    enabled_ = on;
    if (on) {
        compute();
        return;
    }
    task_.cancel();
    range_.reset();
    if (TimelineView* timeline = session_->timeline()) timeline->setKernelColours({});
    emit applied();
}

void BusbwColouring::compute() {
    const std::vector<std::shared_ptr<const Report>> reports = session_->reports();
    task_.run(
        [reports] {
            std::vector<std::vector<std::pair<uint32_t, double>>> busbw;
            Colours out;
            for (const auto& report : reports) {
                busbw.push_back(kernelBusbw(*report));
                for (const auto& [kernel, gbps] : busbw.back())
                    out.range =
                        out.range ? std::make_pair(std::min(out.range->first, gbps), std::max(out.range->second, gbps))
                                  : std::make_pair(gbps, gbps);
            }
            for (const auto& kernels : busbw) {
                KernelColours colours;
                for (const auto& [kernel, gbps] : kernels) {
                    colours.kernel.push_back(kernel);
                    colours.colour.push_back(colourOf(gbps, *out.range));
                }
                out.byReport.push_back(std::move(colours));
            }
            return out;
        },
        [this, reports](Colours colours) {
            if (reports != session_->reports()) return;  // a new computation for the new ones is on its way
            range_ = colours.range;
            if (TimelineView* timeline = session_->timeline()) timeline->setKernelColours(std::move(colours.byReport));
            emit applied();
        });
}

}  // namespace lanescope
