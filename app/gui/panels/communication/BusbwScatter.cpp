#include "app/gui/panels/communication/BusbwScatter.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QLabel>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "app/gui/Theme.h"
#include "timeline/NumberFormat.h"
#include "timeline/QtText.h"

namespace lanescope {
namespace {

// Log2 labels every `step` powers of two over [lo, hi], 1, 2, 5, 10 or 20 apart (multiples of 10
// fall on KiB, MiB, GiB): the closest that leave each label kScatterLabelPx of `width_px`.
int scatterLabelStep(double lo, double hi, double width_px) {
    constexpr double kScatterLabelPx = 64;
    for (int step : {1, 2, 5, 10})
        if (((hi - lo) / step + 1) * kScatterLabelPx <= width_px) return step;
    return 20;
}

// A row with a size and a positive busbw (a one-rank all-reduce moves nothing over the bus).
bool scatterPlots(const CollectiveRows& rows, size_t i) {
    return rows.size_bytes[i] > 0 && std::isfinite(rows.busbw_gbps[i]) && rows.busbw_gbps[i] > 0;
}

}  // namespace

size_t ScatterPoints::size() const {
    size_t n = 0;
    for (const QList<QPointF>& p : points) n += size_t(p.size());
    return n;
}

ScatterPoints scatterPoints(const CollectiveRows& rows) {
    ScatterPoints out;
    size_t plotted = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
        if (!scatterPlots(rows, i)) continue;
        const double x = std::log2(double(rows.size_bytes[i])), y = rows.busbw_gbps[i];
        out.min_x = plotted ? std::min(out.min_x, x) : x;
        out.max_x = plotted ? std::max(out.max_x, x) : x;
        out.min_y = plotted ? std::min(out.min_y, y) : y;
        out.max_y = std::max(out.max_y, y);
        ++plotted;
    }
    if (plotted == 0) return out;
    const bool thin = plotted > ScatterPoints::kScatterAll;
    const int columns = ScatterPoints::kScatterColumns, cellRows = ScatterPoints::kScatterRows;
    const double width = std::max(out.max_x - out.min_x, 1e-9), height = std::max(out.max_y, 1e-9);
    std::vector<bool> taken(thin ? size_t(columns) * size_t(cellRows) * kCollectiveOpCount : 0, false);
    for (size_t i = 0; i < rows.size(); ++i) {
        if (!scatterPlots(rows, i)) continue;
        const size_t op = size_t(rows.op[i]);
        const double x = std::log2(double(rows.size_bytes[i])), y = rows.busbw_gbps[i];
        ++out.counts[op];
        if (thin) {
            const int column = std::min(columns - 1, int((x - out.min_x) / width * columns));
            const int row = std::clamp(int(y / height * cellRows), 0, cellRows - 1);
            const size_t cell = (op * size_t(cellRows) + size_t(row)) * size_t(columns) + size_t(column);
            if (taken[cell]) continue;
            taken[cell] = true;
        }
        out.points[op].append(QPointF(x, y));
        out.rows[op].push_back(uint32_t(i));
    }
    return out;
}

QColor BusbwScatter::colour(CollectiveOp op) {
    // Tableau 10: distinct on light and dark backgrounds.
    static const QColor colours[kCollectiveOpCount] = {
        QColor(0x4e, 0x79, 0xa7),  // AllReduce
        QColor(0xf2, 0x8e, 0x2b),  // AllGather
        QColor(0x59, 0xa1, 0x4f),  // ReduceScatter
        QColor(0xe1, 0x57, 0x59),  // Broadcast
        QColor(0xb0, 0x7a, 0xa1),  // Reduce
        QColor(0x76, 0xb7, 0xb2),  // AllToAll
        QColor(0x9c, 0x75, 0x5f),  // SendRecv
        QColor(0xba, 0xb0, 0xac),  // Other
    };
    return colours[size_t(op)];
}

BusbwScatter::BusbwScatter(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    chart_ = new QChart;
    chart_->setTitle("Bus bandwidth by size");
    chart_->legend()->setAlignment(Qt::AlignBottom);
    chart_->setMargins(QMargins(2, 2, 2, 2));
    auto* view = new QChartView(chart_);
    view->setRenderHint(QPainter::Antialiasing);
    view->setToolTip("Each collective's busbw (GB/s) against its size; hover a point to name it, click to select it");
    message_ = new QLabel;
    message_->setWordWrap(true);
    message_->setAlignment(Qt::AlignCenter);
    message_->setMargin(16);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    pages_ = new QStackedWidget;
    pages_->addWidget(view);
    pages_->addWidget(message_);
    layout->addWidget(pages_);
}

bool BusbwScatter::showsMessage() const { return pages_->currentWidget() == message_; }

QString BusbwScatter::message() const { return message_->text(); }

void BusbwScatter::clear() {
    chart_->removeAllSeries();
    series_ = {};
    sizeAxis_ = nullptr;
    for (QAbstractAxis* axis : chart_->axes()) {
        chart_->removeAxis(axis);  // gives up ownership
        delete axis;
    }
}

void BusbwScatter::labelSizes() {
    if (!sizeAxis_) return;
    for (const QString& label : sizeAxis_->categoriesLabels()) sizeAxis_->remove(label);
    const double lo = sizeAxis_->min(), hi = sizeAxis_->max();
    const double plotWidth = chart_->plotArea().width() > 0 ? chart_->plotArea().width() : width() - 80.0;
    const int step = scatterLabelStep(lo, hi, plotWidth);
    sizeAxis_->setStartValue(lo);
    for (int power = int(std::ceil(lo / step)) * step; power <= hi; power += step)
        if (power >= 0 && power < 63) sizeAxis_->append(qs(formatBytes(int64_t(1) << power)), power);
}

void BusbwScatter::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    // View > Theme: the chart's colours follow the palette.
    if (event->type() == QEvent::PaletteChange && points_.size() > 0) {
        ScatterPoints points = points_;
        setPoints(std::move(points), message());
    }
}

void BusbwScatter::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    labelSizes();
}

int BusbwScatter::rowOf(CollectiveOp op, const QPointF& point) const {
    const QList<QPointF>& list = points_.points[size_t(op)];
    for (qsizetype i = 0; i < list.size(); ++i)
        if (list[i] == point) return int(points_.rows[size_t(op)][size_t(i)]);
    return -1;
}

void BusbwScatter::setPoints(ScatterPoints points, const QString& message) {
    clear();
    points_ = std::move(points);
    if (points_.size() == 0) {
        message_->setText(message);
        pages_->setCurrentWidget(message_);
        return;
    }
    pages_->setCurrentWidget(pages_->widget(0));
    chart_->setTheme(isDark(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart_->setBackgroundBrush(palette().color(QPalette::Base));
    auto* x = new QCategoryAxis;
    x->setTitleText("Size (log scale)");
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    x->setRange(points_.min_x - 0.5, points_.max_x + 0.5);
    sizeAxis_ = x;
    labelSizes();
    // Over more than two decades (small messages are latency-bound), busbw on a log scale too.
    QAbstractAxis* y = nullptr;
    if (points_.max_y > 100 * points_.min_y) {
        auto* log = new QLogValueAxis;
        log->setTitleText("busbw (GB/s, log scale)");
        log->setBase(10);
        log->setLabelFormat("%g");
        log->setRange(points_.min_y / 2, points_.max_y * 2);
        y = log;
    } else {
        auto* linear = new QValueAxis;
        linear->setTitleText("busbw (GB/s)");
        linear->setRange(0, points_.max_y * 1.1);
        linear->applyNiceNumbers();
        linear->setLabelFormat(points_.max_y >= 10 ? "%.0f" : points_.max_y >= 1 ? "%.1f" : "%.3f");
        y = linear;
    }
    chart_->addAxis(x, Qt::AlignBottom);
    chart_->addAxis(y, Qt::AlignLeft);
    for (size_t op = 0; op < kCollectiveOpCount; ++op) {
        if (points_.points[op].isEmpty()) continue;
        const CollectiveOp which = CollectiveOp(op);
        auto* series = new QScatterSeries;
        series->setName(QString("%1 (%2)").arg(qs(collectiveOpName(which))).arg(points_.counts[op]));
        series->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        series->setMarkerSize(9);
        series->setColor(colour(which));
        series->setBorderColor(colour(which).darker(130));
        series->replace(points_.points[op]);
        chart_->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
        series_[op] = series;
        connect(series, &QScatterSeries::hovered, this,
                [this, which](const QPointF& point, bool state) { emit rowHovered(state ? rowOf(which, point) : -1); });
        connect(series, &QScatterSeries::clicked, this, [this, which](const QPointF& point) {
            if (const int row = rowOf(which, point); row >= 0) emit rowClicked(row);
        });
    }
}

}  // namespace lanescope
