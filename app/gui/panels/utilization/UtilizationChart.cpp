#include "app/gui/panels/utilization/UtilizationChart.h"

#include <QChart>
#include <QChartView>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

#include "analysis/GpuUtilization.h"

namespace lanescope {
namespace {

constexpr int kChunks = 100;

}  // namespace

UtilizationChart::UtilizationChart(ViewSession* session, QWidget* parent) : QWidget(parent), session_(session) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* top = new QHBoxLayout;
    threshold_ = new QSpinBox;
    threshold_->setRange(0, 100);
    threshold_->setValue(50);
    threshold_->setSuffix(" %");
    threshold_->setToolTip("Threshold line: chunks under it are underused");
    top->addWidget(new QLabel("GPU busy share of the visible range, 100 chunks; threshold"));
    top->addWidget(threshold_);
    top->addStretch(1);
    layout->addLayout(top);
    chart_ = new QChart;
    chart_->legend()->setAlignment(Qt::AlignRight);
    chart_->setMargins(QMargins(4, 4, 4, 4));
    view_ = new QChartView(chart_);
    view_->setRenderHint(QPainter::Antialiasing);
    layout->addWidget(view_, 1);
    auto* debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(60);
    connect(debounce, &QTimer::timeout, this, &UtilizationChart::recompute);
    connect(session_, &ViewSession::visibleRangeChanged, debounce, qOverload<>(&QTimer::start));
    connect(session_, &ViewSession::offsetsChanged, debounce, qOverload<>(&QTimer::start));
    connect(session_, &ViewSession::reportsChanged, this, &UtilizationChart::recompute);
    connect(threshold_, &QSpinBox::valueChanged, this, &UtilizationChart::recompute);
}

int UtilizationChart::seriesCount() const { return int(chart_->series().size()); }

void UtilizationChart::computeNow() {
    const int64_t begin = session_->visibleRange().first, end = session_->visibleRange().second;
    auto reports = session_->reports();
    const std::vector<int64_t> offsets = session_->offsets();  // each report's place on the shared timeline
    using Result = std::vector<Curve>;
    task_.run(
        [reports, offsets, begin, end] {
            Result curves;
            for (size_t r = 0; r < reports.size(); ++r) {
                const auto& report = reports[r];
                const int64_t offset = offsets[r];
                const QString file = QFileInfo(QString::fromStdString(report->meta.source_path)).fileName();
                for (size_t g = 0; g < report->gpus.size(); ++g) {
                    const UtilizationSeries s =
                        gpuUtilization(*report, int32_t(g), begin - offset, end - offset, kChunks);
                    Curve c{QString("%1 GPU %2").arg(file).arg(report->gpus[g].device_id), {}};
                    // A step line: each chunk's value held across the chunk.
                    for (size_t i = 0; i < s.busy_fraction.size(); ++i) {
                        const double x0 = double(s.begin_ns + offset + int64_t(i) * s.chunk_ns - begin) / 1e6;
                        c.points.emplace_back(x0, 100 * s.busy_fraction[i]);
                        c.points.emplace_back(x0 + double(s.chunk_ns) / 1e6, 100 * s.busy_fraction[i]);
                    }
                    curves.push_back(std::move(c));
                }
            }
            return curves;
        },
        [this, begin, end](const Result& curves) { showCurves(curves, begin, end); });
}

void UtilizationChart::showCurves(const std::vector<Curve>& curves, int64_t begin, int64_t end) {
    chart_->removeAllSeries();
    for (QAbstractAxis* axis : chart_->axes()) {
        chart_->removeAxis(axis);  // gives up ownership
        delete axis;
    }
    auto* x = new QValueAxis;
    x->setTitleText("ms from the visible start");
    x->setRange(0, double(end - begin) / 1e6);
    auto* y = new QValueAxis;
    y->setRange(0, 100);
    y->setLabelFormat("%d%%");
    chart_->addAxis(x, Qt::AlignBottom);
    chart_->addAxis(y, Qt::AlignLeft);
    for (const Curve& c : curves) {
        auto* series = new QLineSeries;
        series->setName(c.name);
        series->append(QList<QPointF>(c.points.begin(), c.points.end()));
        chart_->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    }
    auto* line = new QLineSeries;
    line->setName("threshold");
    line->append(0, threshold_->value());
    line->append(double(end - begin) / 1e6, threshold_->value());
    QPen pen(Qt::DashLine);
    pen.setColor(QColor(0xC0392B));
    line->setPen(pen);
    chart_->addSeries(line);
    line->attachAxis(x);
    line->attachAxis(y);
}

}  // namespace lanescope
