#include "app/gui/panels/ranks/RankHeatMap.h"

#include <QEvent>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "timeline/TimeFormat.h"

namespace lanescope {
namespace {

constexpr int kAxisPx = 18;          // the step numbers on top
constexpr int kLegendPx = 24;        // the colour scale below
constexpr double kMaxColumnPx = 40;  // a few steps do not stretch into wide bars
constexpr QRgb kOutlier = 0xFF1F78B4;
constexpr QRgb kMissing = 0xFFB8BCC2;

QString duration(int64_t ns) { return QString::fromStdString(formatDuration(ns)); }

// ColorBrewer's YlOrRd (light yellow to dark red), 256 steps.
std::vector<QRgb> heatColors() {
    const QRgb stops[] = {0xFFFFFFCC, 0xFFFFEDA0, 0xFFFED976, 0xFFFEB24C, 0xFFFD8D3C,
                          0xFFFC4E2A, 0xFFE31A1C, 0xFFBD0026, 0xFF800026};
    constexpr int kStops = int(std::size(stops));
    std::vector<QRgb> out(256);
    for (int i = 0; i < 256; ++i) {
        const double at = double(i) / 255 * (kStops - 1);
        const int a = std::min(int(at), kStops - 2);
        const double f = at - a;
        const auto mix = [&](int shift) {
            return int(std::lround(((stops[a] >> shift) & 0xFF) * (1 - f) + ((stops[a + 1] >> shift) & 0xFF) * f));
        };
        out[size_t(i)] = qRgb(mix(16), mix(8), mix(0));
    }
    return out;
}

// The 1st and the 99th percentile of the cells whose rank ran the step: a few extreme cells
// do not wash out the others' colours.
std::pair<int64_t, int64_t> scaleOf(const StepGrid& grid, const std::vector<int64_t>& values) {
    std::vector<int64_t> present;
    present.reserve(values.size());
    for (size_t i = 0; i < values.size(); ++i)
        if (grid.step_ns[i] != StepGrid::kNoStep) present.push_back(values[i]);
    if (present.empty()) return {0, 1};
    const auto at = [&present](size_t percent) {
        const auto it = present.begin() + static_cast<std::ptrdiff_t>((present.size() - 1) * percent / 100);
        std::nth_element(present.begin(), it, present.end());
        return *it;
    };
    const int64_t high = at(99), low = at(1);
    return {low, std::max(high, low + 1)};
}

}  // namespace

RankHeatMap::RankHeatMap(QWidget* parent) : QWidget(parent), colors_(heatColors()) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    scroll_ = new QScrollBar(Qt::Vertical, this);
    scroll_->hide();
    connect(scroll_, &QScrollBar::valueChanged, this, [this] { update(); });
}

void RankHeatMap::setGrid(StepGrid grid, std::vector<QString> labels) {
    grid_ = std::move(grid);
    labels_ = std::move(labels);
    labels_.resize(grid_.ranks);
    order_.resize(grid_.ranks);
    std::iota(order_.begin(), order_.end(), 0);
    stepScale_ = scaleOf(grid_, grid_.step_ns);
    waitScale_ = scaleOf(grid_, grid_.wait_ns);
    hovered_.reset();
    updateLayout();
    update();
}

void RankHeatMap::setMeasure(Measure measure) {
    measure_ = measure;
    update();
}

void RankHeatMap::setOrder(std::vector<int> order) {
    std::vector<int> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < sorted.size(); ++i)
        if (sorted[i] != int(i)) return;  // not a permutation of the ranks
    if (sorted.size() != grid_.ranks) return;
    order_ = std::move(order);
    update();
}

QRect RankHeatMap::plotArea() const {
    const int scrollbar = scroll_->isVisible() ? scroll_->sizeHint().width() : 0;
    return QRect(labelWidth_, kAxisPx, std::max(1, width() - labelWidth_ - scrollbar - 4),
                 std::max(1, height() - kAxisPx - kLegendPx));
}

double RankHeatMap::columnWidth() const {
    return grid_.steps.empty() ? 0 : std::min(kMaxColumnPx, double(plotArea().width()) / double(grid_.steps.size()));
}

int RankHeatMap::rowHeight() const {
    if (grid_.ranks == 0) return kMaxRowPx;
    return std::clamp(plotArea().height() / int(grid_.ranks), kMinRowPx, kMaxRowPx);
}

void RankHeatMap::updateLayout() {
    const QFontMetrics fm(font());
    int widest = 0;
    for (const QString& label : labels_) widest = std::max(widest, fm.horizontalAdvance(label));
    labelWidth_ = std::clamp(widest + 10, 40, 150);
    const int visibleRows = std::max(1, (height() - kAxisPx - kLegendPx) / kMinRowPx);
    const bool scrolls = int(grid_.ranks) > visibleRows;
    scroll_->setVisible(scrolls);
    const int sb = scroll_->sizeHint().width();
    scroll_->setGeometry(width() - sb, kAxisPx, sb, std::max(1, height() - kAxisPx - kLegendPx));
    const int fitting = std::max(1, plotArea().height() / rowHeight());
    scroll_->setRange(0, std::max(0, int(grid_.ranks) - fitting));
    scroll_->setPageStep(fitting);
}

void RankHeatMap::resizeEvent(QResizeEvent*) { updateLayout(); }

std::optional<std::pair<int, int>> RankHeatMap::cellAt(QPoint pos) const {
    const QRect plot = plotArea();
    const double cw = columnWidth();
    if (cw <= 0 || pos.x() < plot.left() || pos.y() < plot.top() || pos.y() > plot.bottom()) return std::nullopt;
    const int column = int((pos.x() - plot.left()) / cw);
    const int row = scroll_->value() + (pos.y() - plot.top()) / rowHeight();
    if (column >= int(grid_.steps.size()) || row >= int(order_.size())) return std::nullopt;
    return std::make_pair(order_[size_t(row)], column);
}

QRect RankHeatMap::cellRect(int rank, int column) const {
    const auto row = std::find(order_.begin(), order_.end(), rank);
    if (row == order_.end() || column < 0 || column >= int(grid_.steps.size())) return {};
    const QRect plot = plotArea();
    const int visible = int(row - order_.begin()) - scroll_->value();
    const int top = plot.top() + visible * rowHeight();
    if (visible < 0 || top + rowHeight() > plot.bottom() + 1) return {};
    const double cw = columnWidth();
    const int x0 = plot.left() + int(std::floor(column * cw)), x1 = plot.left() + int(std::floor((column + 1) * cw));
    return QRect(x0, top, std::max(1, x1 - x0), rowHeight());
}

QString RankHeatMap::cellTooltip(int rank, int column) const {
    if (rank < 0 || size_t(rank) >= grid_.ranks || column < 0 || size_t(column) >= grid_.steps.size()) return {};
    const size_t cell = grid_.at(size_t(rank), size_t(column));
    QString text = QString("<b>%1</b> · step %2").arg(labels_[size_t(rank)].toHtmlEscaped()).arg(grid_.steps[column]);
    if (grid_.step_ns[cell] == StepGrid::kNoStep) return text + "<br>no such step on this rank";
    text += QString("<br>step time %1 (median of the ranks %2)")
                .arg(duration(grid_.step_ns[cell]), duration(grid_.step_median_ns[size_t(column)]));
    text += QString("<br>waited in collectives %1 (median %2)")
                .arg(duration(grid_.wait_ns[cell]), duration(grid_.wait_median_ns[size_t(column)]));
    if (grid_.step_outlier[cell]) text += "<br><b>outlier</b>: step time beyond the median + 3σ";
    if (grid_.wait_outlier[cell]) text += "<br><b>outlier</b>: wait beyond the median + 3σ";
    if (size_t(rank) < timelines_.size() && !timelines_[size_t(rank)])
        return text + "<br><i>no timeline (a summary): double-click the rank in the table to open its report</i>";
    return text + "<br><i>click: show it on the timeline</i>";
}

void RankHeatMap::paintEvent(QPaintEvent*) {
    QPainter p(this);
    if (grid_.ranks == 0 || grid_.steps.empty()) {
        p.fillRect(rect(), palette().window());
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                   grid_.ranks == 0 ? "No ranks to compare"
                                    : "No steps: name the training loop's iterations with NVTX ranges or PyTorch "
                                      "annotations \"step N\" (ProfilerStep#N) to see the ranks by step here");
        return;
    }
    const int fitting = std::max(1, plotArea().height() / rowHeight());
    const int firstRow = scroll_->value();
    const int lastRow = std::min(int(grid_.ranks), firstRow + fitting);
    paintCells(p, firstRow, lastRow);
    paintAxes(p, firstRow, lastRow);
    paintLegend(p);
}

void RankHeatMap::paintCells(QPainter& p, int firstRow, int lastRow) {
    const QRect plot = plotArea();
    const double cw = columnWidth();
    const int rh = rowHeight(), rows = lastRow - firstRow;
    const int columns = int(grid_.steps.size());
    const int bins = std::min(columns, std::max(1, plot.width()));  // colours per row
    const bool outline = cw >= 5 && rh >= 5;                        // else outliers are filled
    const auto [low, high] = scale();
    const std::vector<int64_t>& value = values();
    const std::vector<uint8_t>& outlier = outliers();
    // The image is drawn unscaled: each pixel column knows its bin (as cellRect places columns).
    const int w = std::max(1, int(std::floor(columns * cw))), h = std::max(1, rows * rh);
    if (cells_.width() != w || cells_.height() != h) cells_ = QImage(w, h, QImage::Format_RGB32);
    std::vector<int> binOfX(size_t(w), bins - 1);
    for (int c = 0; c < columns; ++c)
        for (int x = int(std::floor(c * cw)); x < std::min(w, int(std::floor((c + 1) * cw))); ++x)
            binOfX[size_t(x)] = int(int64_t(c) * bins / columns);
    std::vector<QRgb> binColor(static_cast<size_t>(bins));
    std::vector<QRectF> marked;
    for (int r = 0; r < rows; ++r) {
        const size_t rank = size_t(order_[size_t(firstRow + r)]);
        for (int b = 0; b < bins; ++b) {
            // The steps of this bin (one unless steps outnumber pixels): the longest.
            const int c0 = int(int64_t(b) * columns / bins), c1 = int(int64_t(b + 1) * columns / bins);
            int64_t v = -1;
            bool isOutlier = false;
            for (int c = c0; c < c1; ++c) {
                const size_t cell = grid_.at(rank, size_t(c));
                if (grid_.step_ns[cell] == StepGrid::kNoStep) continue;
                v = std::max(v, value[cell]);
                isOutlier = isOutlier || outlier[cell];
            }
            if (v < 0) {
                binColor[size_t(b)] = kMissing;
            } else if (isOutlier && !outline) {
                binColor[size_t(b)] = kOutlier;
            } else {
                const double f = std::clamp(double(v - low) / double(high - low), 0.0, 1.0);
                binColor[size_t(b)] = colors_[size_t(std::lround(f * 255))];
                if (isOutlier) marked.emplace_back(plot.left() + c0 * cw, plot.top() + r * rh, (c1 - c0) * cw, rh);
            }
        }
        auto* line = reinterpret_cast<QRgb*>(cells_.scanLine(r * rh));
        for (int x = 0; x < w; ++x) line[x] = binColor[size_t(binOfX[size_t(x)])];
        for (int y = 1; y < rh; ++y) std::memcpy(cells_.scanLine(r * rh + y), line, size_t(w) * sizeof(QRgb));
    }
    const QRect target(plot.left(), plot.top(), w, h);
    // The background around the cells only: a large heat map is mostly cells.
    const QBrush background = palette().window();
    p.fillRect(QRect(0, 0, width(), target.top()), background);
    p.fillRect(QRect(0, target.bottom() + 1, width(), height() - target.bottom() - 1), background);
    p.fillRect(QRect(0, target.top(), target.left(), h), background);
    p.fillRect(QRect(target.right() + 1, target.top(), width() - target.right() - 1, h), background);
    p.drawImage(target.topLeft(), cells_);
    // Cells apart where they are large enough to tell.
    if (cw >= 6 && rh >= 6) {
        std::vector<QLine> gaps;
        for (int c = 1; c < columns; ++c) {
            const int x = target.left() + int(std::floor(c * cw));
            gaps.emplace_back(x, target.top(), x, target.bottom());
        }
        for (int r = 1; r < rows; ++r)
            gaps.emplace_back(target.left(), target.top() + r * rh, target.right(), target.top() + r * rh);
        p.setPen(QPen(palette().color(QPalette::Window), 1));
        p.drawLines(gaps.data(), int(gaps.size()));
    }
    if (!marked.empty()) {
        for (QRectF& m : marked) m.adjust(1.5, 1.5, -1.5, -1.5);
        p.setPen(QPen(QColor(kOutlier), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRects(marked.data(), int(marked.size()));
    }
    if (hovered_) {
        const QRect cell = cellRect(hovered_->first, hovered_->second);
        if (!cell.isEmpty()) {
            p.setPen(QPen(palette().color(QPalette::WindowText), 1));
            p.setBrush(Qt::NoBrush);
            p.drawRect(QRect(target.left(), cell.top(), target.width() - 1, cell.height() - 1));
            p.setPen(QPen(palette().color(QPalette::WindowText), 2));
            p.drawRect(cell.adjusted(0, 0, -1, -1));
        }
    }
}

void RankHeatMap::paintAxes(QPainter& p, int firstRow, int lastRow) {
    const QRect plot = plotArea();
    const QFontMetrics fm(font());
    const int rh = rowHeight();
    p.setPen(palette().color(QPalette::WindowText));
    // Rank labels: each row's where they fit, else every k-th.
    const int every = std::max(1, int(std::ceil(double(fm.height() - 2) / rh)));
    for (int row = firstRow; row < lastRow; ++row) {
        if (row % every) continue;
        const size_t rank = size_t(order_[size_t(row)]);
        const int y = plot.top() + (row - firstRow) * rh;
        const QString label = fm.elidedText(labels_[rank], Qt::ElideMiddle, labelWidth_ - 8);
        p.drawText(QRect(2, y + rh / 2 - fm.height() / 2, labelWidth_ - 8, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, label);
    }
    // Step numbers: every k-th column, k a round number that keeps them apart.
    const double cw = columnWidth();
    const int widest = fm.horizontalAdvance(QString::number(grid_.steps.back())) + 8;
    int stride = 1;
    for (int k : {1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000})
        if ((stride = k) * cw >= widest) break;
    for (size_t c = 0; c < grid_.steps.size(); c += size_t(stride)) {
        const double x = plot.left() + (double(c) + 0.5) * cw;
        if (x + widest / 2.0 > width()) break;
        p.drawText(QRectF(x - widest / 2.0, 0, widest, kAxisPx), Qt::AlignCenter, QString::number(grid_.steps[c]));
    }
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(QRect(2, 0, labelWidth_ - 8, kAxisPx), Qt::AlignRight | Qt::AlignVCenter, "step");
}

void RankHeatMap::paintLegend(QPainter& p) {
    const QFontMetrics fm(font());
    const int top = height() - kLegendPx + 6, h = 10;
    int x = labelWidth_;
    const auto [low, high] = scale();
    p.setPen(palette().color(QPalette::WindowText));
    const auto text = [&](const QString& s) {
        p.drawText(QRect(x, top - 3, fm.horizontalAdvance(s) + 2, h + 6), Qt::AlignLeft | Qt::AlignVCenter, s);
        x += fm.horizontalAdvance(s) + 8;
    };
    text((low > 0 ? "≤ " : "") + duration(low));
    QLinearGradient ramp(x, 0, x + 120, 0);
    for (int i = 0; i <= 8; ++i) ramp.setColorAt(i / 8.0, QColor(colors_[size_t(i * 255 / 8)]));
    p.fillRect(QRect(x, top, 120, h), ramp);
    x += 126;
    text("≥ " + duration(high));
    x += 8;
    p.setPen(QPen(QColor(kOutlier), 2));
    p.setBrush(QColor(colors_[128]));
    p.drawRect(QRect(x + 1, top, 14, h));
    x += 20;
    p.setPen(palette().color(QPalette::WindowText));
    text("outlier (> median + 3σ)");
    p.fillRect(QRect(x, top, 14, h), QColor(kMissing));
    x += 20;
    text("no such step");
}

void RankHeatMap::mouseMoveEvent(QMouseEvent* event) {
    const auto cell = cellAt(event->position().toPoint());
    if (cell != hovered_) {
        hovered_ = cell;
        setCursor(cell ? Qt::PointingHandCursor : Qt::ArrowCursor);
        update();
    }
}

void RankHeatMap::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    if (const auto cell = cellAt(event->position().toPoint())) emit cellClicked(cell->first, cell->second);
}

void RankHeatMap::leaveEvent(QEvent*) {
    hovered_.reset();
    update();
}

void RankHeatMap::wheelEvent(QWheelEvent* event) {
    if (!scroll_->isVisible()) return;
    scroll_->setValue(scroll_->value() - event->angleDelta().y() / 40);
}

bool RankHeatMap::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        if (const auto cell = cellAt(help->pos()))
            QToolTip::showText(help->globalPos(), cellTooltip(cell->first, cell->second), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

}  // namespace lanescope
