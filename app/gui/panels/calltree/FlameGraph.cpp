#include "app/gui/panels/calltree/FlameGraph.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>

#include "app/gui/panels/calltree/CallTreeModel.h"
#include "timeline/QtText.h"

namespace lanescope {
namespace {

constexpr double kMinBarPx = 1.0;    // narrower bars (and all below them) are not drawn
constexpr double kMinTextPx = 34.0;  // narrower bars get no label

}  // namespace

FlameGraph::FlameGraph(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    updateHeight();
}

void FlameGraph::setTree(std::shared_ptr<const Report> report, std::vector<CallTreeRow> rows, uint64_t samples) {
    report_ = std::move(report);
    rows_ = std::move(rows);
    samples_ = samples;
    zoom_.clear();
    hovered_.reset();
    const auto n = uint32_t(rows_.size());
    // x: children start at their parent's left edge, siblings side by side in row order.
    // end: a node's subtree is the run of rows after it that are deeper than it.
    x_.assign(n, 0);
    end_.assign(n, n);
    maxDepth_ = 0;
    std::vector<uint64_t> next;  // next[d]: the left edge of the next node at depth d
    std::vector<uint32_t> open;  // nodes whose subtree has not ended yet
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t d = rows_[i].depth;
        while (!open.empty() && rows_[open.back()].depth >= d) end_[open.back()] = i, open.pop_back();
        next.resize(std::max<size_t>(next.size(), d + 2), 0);
        x_[i] = next[d];
        next[d] += rows_[i].total;
        next[d + 1] = x_[i];
        open.push_back(i);
        maxDepth_ = std::max(maxDepth_, d);
    }
    setSearch(search_);
    updateHeight();
    update();
}

void FlameGraph::setSearch(const QString& text) {
    search_ = text;
    match_.assign(rows_.size(), 0);
    if (!text.isEmpty() && report_)
        for (size_t i = 0; i < rows_.size(); ++i)
            match_[i] =
                qs(report_->str(report_->stacks.frame_function[rows_[i].frame])).contains(text, Qt::CaseInsensitive);
    update();
}

void FlameGraph::updateHeight() {
    setMinimumHeight(int(maxDepth_ + 2 + (rows_.empty() ? 0 : 1)) * kRowHeight);
    updateGeometry();
}

QSize FlameGraph::sizeHint() const { return {800, minimumHeight()}; }

void FlameGraph::zoomInto(uint32_t node) {
    if (node >= rows_.size()) return;
    const auto at = std::find(zoom_.begin(), zoom_.end(), node);
    if (at != zoom_.end())
        zoom_.erase(at + 1, zoom_.end());
    else
        zoom_.push_back(node);
    hovered_.reset();
    update();
}

bool FlameGraph::zoomOut() {
    if (zoom_.empty()) return false;
    zoom_.pop_back();
    update();
    return true;
}

double FlameGraph::viewX0() const { return zoom_.empty() ? 0.0 : double(x_[zoom_.back()]); }
double FlameGraph::viewWidth() const {
    return std::max(1.0, zoom_.empty() ? double(samples_) : double(rows_[zoom_.back()].total));
}

QRectF FlameGraph::barRect(uint32_t node) const {
    const double scale = width() / viewWidth();
    if (node == kRoot) return samples_ ? QRectF(0, 0, width(), kRowHeight) : QRectF();
    if (node >= rows_.size()) return {};
    double left = (double(x_[node]) - viewX0()) * scale, right = left + double(rows_[node].total) * scale;
    left = std::max(left, 0.0);
    right = std::min(right, double(width()));
    if (right - left < kMinBarPx) return {};
    return {left, double(rows_[node].depth + 1) * kRowHeight, right - left, double(kRowHeight)};
}

std::optional<uint32_t> FlameGraph::nodeAt(QPointF pos) const {
    const int row = int(pos.y()) / kRowHeight;
    if (pos.y() < 0 || pos.x() < 0 || pos.x() >= width()) return std::nullopt;
    if (row == 0) return samples_ ? std::optional<uint32_t>(kRoot) : std::nullopt;
    for (uint32_t i = 0; i < rows_.size();) {
        const QRectF r = barRect(i);
        if (r.isEmpty() || pos.x() < r.left() || pos.x() >= r.right()) {
            i = end_[i];  // not under this bar: nor under anything below it
            continue;
        }
        if (int(rows_[i].depth) + 1 == row) return i;
        ++i;  // the point is below this bar: look among its children
    }
    return std::nullopt;
}

QColor FlameGraph::colorOf(uint32_t node) const {
    // A hue per module (its file name), warm and light enough for black text.
    std::string_view module = report_->str(report_->stacks.frame_module[rows_[node].frame]);
    if (const size_t slash = module.find_last_of('/'); slash != std::string_view::npos)
        module = module.substr(slash + 1);
    const size_t hash = std::hash<std::string_view>{}(module);
    const int hue = int(hash % 360);
    const int light = 165 + int((hash >> 12) % 30);
    return QColor::fromHsl(hue, 150, light);
}

QString FlameGraph::tooltipOf(uint32_t node) const {
    if (node == kRoot) return QString("<b>All samples</b><br>%1 samples").arg(QLocale().toString(qulonglong(samples_)));
    const CallTreeRow& row = rows_[node];
    return QString(
               "<b>%1</b><br>%2<br>Self %3 (%4), Total %5 (%6)<br><i>click: zoom in · double-click: show its "
               "samples on the timeline</i>")
        .arg(qs(report_->str(report_->stacks.frame_function[row.frame])).toHtmlEscaped(),
             qs(report_->str(report_->stacks.frame_module[row.frame])).toHtmlEscaped(),
             QLocale().toString(qulonglong(row.self)), percentText(row.self, samples_),
             QLocale().toString(qulonglong(row.total)), percentText(row.total, samples_));
}

void FlameGraph::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    if (!samples_ || !report_) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(0, 0, 0, -height() / 2), Qt::AlignCenter, "No CPU samples in the selection");
        return;
    }
    const QFontMetrics fm = p.fontMetrics();
    const QColor text(20, 20, 20);
    auto drawBar = [&](const QRectF& r, QColor fill, const QString& label, bool faded) {
        if (faded) fill = QColor::fromHsl(fill.hslHue(), 30, 225);
        p.fillRect(r.adjusted(0, 0, r.width() > 3 ? -1 : 0, -1), fill);
        if (r.width() < kMinTextPx) return;
        p.setPen(faded ? QColor(120, 120, 120) : text);
        p.drawText(r.adjusted(4, 0, -3, -1), Qt::AlignVCenter | Qt::AlignLeft,
                   fm.elidedText(label, Qt::ElideRight, int(r.width()) - 7));
    };
    drawBar(barRect(kRoot), QColor(200, 200, 205),
            QString("all %1 samples").arg(QLocale().toString(qulonglong(samples_))) +
                (zoom_.empty() ? QString() : QString("  (click here or press Esc to zoom out)")),
            false);
    const QRectF visible = rect();
    // Bars under a pixel wide are not drawn one by one: neighbours at one depth merge into a
    // grey run, so that many tiny stacks still show how much room they take.
    std::vector<QRectF> runs;  // per depth: the run being extended
    std::vector<QRectF> narrow;
    const double scale = width() / viewWidth();
    for (uint32_t i = 0; i < rows_.size();) {
        const QRectF r = barRect(i);
        if (r.isEmpty() || r.top() > visible.bottom()) {
            const double left = (double(x_[i]) - viewX0()) * scale, right = left + double(rows_[i].total) * scale;
            const uint32_t d = rows_[i].depth;
            if (r.isEmpty() && right > 0 && left < width()) {
                if (runs.size() <= d) runs.resize(d + 1);
                QRectF& run = runs[d];
                if (!run.isNull() && left <= run.right() + 0.5) {
                    run.setRight(std::max(run.right(), right));
                } else {
                    if (!run.isNull()) narrow.push_back(run);
                    run = QRectF(left, double(d + 1) * kRowHeight, right - left, kRowHeight);
                }
            }
            i = end_[i];  // too narrow or outside the zoom: so is everything below it
            continue;
        }
        const bool faded = !search_.isEmpty() && !match_[i];
        drawBar(r, colorOf(i), qs(report_->str(report_->stacks.frame_function[rows_[i].frame])), faded);
        if (!search_.isEmpty() && match_[i]) {
            p.setPen(QPen(QColor(200, 40, 40), 2));
            p.drawRect(r.adjusted(1, 1, -2, -2));
        }
        ++i;
    }
    for (const QRectF& run : runs)
        if (!run.isNull()) narrow.push_back(run);
    for (QRectF run : narrow) {
        if (run.width() < 1) run.setWidth(1);
        p.fillRect(run.adjusted(0, 0, 0, -1), QColor(175, 175, 180));
    }
    if (hovered_) {
        const QRectF r = barRect(*hovered_);
        if (!r.isEmpty()) {
            p.setPen(QPen(palette().color(QPalette::Text), 1.5));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r.adjusted(0.5, 0.5, -1.5, -1.5));
        }
    }
}

void FlameGraph::mousePressEvent(QMouseEvent* event) {
    setFocus();
    if (event->button() == Qt::RightButton || event->button() == Qt::BackButton) {
        zoomOut();
        return;
    }
    if (event->button() != Qt::LeftButton) return;
    const auto node = nodeAt(event->position());
    if (!node) return;
    if (*node == kRoot) {
        zoom_.clear();
        update();
    } else {
        zoomInto(*node);
    }
}

void FlameGraph::mouseDoubleClickEvent(QMouseEvent* event) {
    const auto node = nodeAt(event->position());
    if (event->button() == Qt::LeftButton && node && *node != kRoot) emit frameActivated(rows_[*node].frame);
}

void FlameGraph::mouseMoveEvent(QMouseEvent* event) {
    const auto node = nodeAt(event->position());
    if (node != hovered_) {
        hovered_ = node;
        update();
    }
}

void FlameGraph::leaveEvent(QEvent*) {
    hovered_.reset();
    update();
}

void FlameGraph::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape || event->key() == Qt::Key_Backspace) {
        if (!zoomOut() && event->key() == Qt::Key_Escape) emit clearRequested();
        return;
    }
    QWidget::keyPressEvent(event);
}

bool FlameGraph::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto node = nodeAt(help->pos());
        if (node)
            QToolTip::showText(help->globalPos(), tooltipOf(*node), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

}  // namespace lanescope
