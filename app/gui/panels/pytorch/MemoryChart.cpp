#include "app/gui/panels/pytorch/MemoryChart.h"

#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <map>
#include <utility>
#include <vector>

namespace lanescope {
namespace {

// One device's running totals as step points (ms, MB): each value held until the next event.
// Past kMaxPoints events, each of kMaxPoints / 2 equal time buckets keeps its highest value, so
// peaks survive thinning.
struct DeviceCurves {
    QList<QPointF> allocated, reserved;
};

void addStep(QList<QPointF>& points, double ms, double mb) {
    if (!points.isEmpty()) points.append({ms, points.back().y()});
    points.append({ms, mb});
}

// `rows`: one device's rows of `all` (Report::pytorch_memory), in time order.
DeviceCurves deviceCurves(const Column<PytorchMemoryEvent>& all, const std::vector<uint32_t>& rows) {
    auto at = [&](size_t i) -> const PytorchMemoryEvent& { return all[rows[i]]; };
    DeviceCurves curves;
    const size_t buckets = std::max<size_t>(1, MemoryChart::kMaxPoints / 2);
    const int64_t first = at(0).time_ns, last = at(rows.size() - 1).time_ns;
    const double span = double(std::max<int64_t>(last - first, 1));
    size_t i = 0;
    while (i < rows.size()) {
        // The events of one bucket (one event per bucket when they are few).
        size_t end = i + 1;
        if (rows.size() > MemoryChart::kMaxPoints) {
            const auto bucket = size_t(double(at(i).time_ns - first) / span * double(buckets - 1));
            while (end < rows.size() && size_t(double(at(end).time_ns - first) / span * double(buckets - 1)) == bucket)
                ++end;
        }
        int64_t allocated = 0, reserved = 0;
        for (size_t e = i; e < end; ++e) {
            allocated = std::max(allocated, at(e).total_allocated);
            reserved = std::max(reserved, at(e).total_reserved);
        }
        const double ms = double(at(i).time_ns) / 1e6;
        addStep(curves.allocated, ms, double(allocated) / 1e6);
        addStep(curves.reserved, ms, double(reserved) / 1e6);
        i = end;
    }
    return curves;
}

}  // namespace

MemoryChart::MemoryChart(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    chart_ = new QChart;
    chart_->legend()->setAlignment(Qt::AlignBottom);
    chart_->setMargins(QMargins(2, 2, 2, 2));
    chart_->setTitle("Memory (MB)");
    setToolTip(
        "Bytes allocated and reserved by PyTorch per device over time (ms); click a curve to move the "
        "timeline there");
    auto* view = new QChartView(chart_);
    view->setRenderHint(QPainter::Antialiasing);
    layout->addWidget(view);
}

void MemoryChart::clear() {
    chart_->removeAllSeries();
    for (QAbstractAxis* axis : chart_->axes()) {
        chart_->removeAxis(axis);  // gives up ownership
        delete axis;
    }
}

MemoryCurves MemoryChart::curvesOf(const Report& report) {
    MemoryCurves result;
    // Each device's events in time order, by (device type, id).
    std::map<std::pair<uint8_t, int16_t>, std::vector<uint32_t>> byDevice;  // rows of pytorch_memory
    for (uint32_t i = 0; i < report.pytorch_memory.size(); ++i)
        byDevice[{report.pytorch_memory[i].device_type, report.pytorch_memory[i].device_id}].push_back(i);
    if (byDevice.empty()) return result;
    for (const auto& [device, rows] : byDevice) {
        DeviceCurves curves = deviceCurves(report.pytorch_memory, rows);
        const QString label = QString::fromStdString(pytorchDeviceLabel(device.first, device.second));
        result.curves.push_back({label + " allocated", std::move(curves.allocated)});
        result.curves.push_back({label + " reserved", std::move(curves.reserved)});
    }
    result.begin_ms = double(report.pytorch_memory.front().time_ns) / 1e6;
    result.end_ms = double(report.pytorch_memory.back().time_ns) / 1e6;
    return result;
}

void MemoryChart::setCurves(const MemoryCurves& curves) {
    clear();
    if (curves.curves.empty()) return;
    auto* x = new QValueAxis;
    x->setTitleText("ms");
    x->setLabelFormat("%.1f");
    auto* y = new QValueAxis;
    y->setTitleText("MB");
    y->setLabelFormat("%.0f");
    chart_->addAxis(x, Qt::AlignBottom);
    chart_->addAxis(y, Qt::AlignLeft);
    double top = 0;
    for (const MemoryCurves::Curve& curve : curves.curves) {
        auto* series = new QLineSeries;
        series->setName(curve.name);
        series->replace(curve.points);
        chart_->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
        connect(series, &QLineSeries::clicked, this,
                [this](const QPointF& point) { emit timeClicked(int64_t(point.x() * 1e6)); });
        for (const QPointF& p : curve.points) top = std::max(top, p.y());
    }
    x->setRange(curves.begin_ms, curves.end_ms);
    y->setRange(0, top * 1.05 + 1);
}

qsizetype MemoryChart::pointCount() const {
    qsizetype points = 0;
    for (QAbstractSeries* series : chart_->series())
        if (auto* line = qobject_cast<QLineSeries*>(series)) points += line->count();
    return points;
}

}  // namespace lanescope
