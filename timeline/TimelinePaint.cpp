// Painting of TimelineView: ruler, row headers, lanes from cached geometry, overlays.
#include <QElapsedTimer>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QStaticText>
#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "timeline/NumberFormat.h"
#include "timeline/QtText.h"
#include "timeline/ReportSummaries.h"
#include "timeline/TextCache.h"
#include "timeline/TimeFormat.h"
#include "timeline/TimelineView.h"

namespace lanescope {
namespace {

constexpr int kMinTextHeightPx = 14;  // boxes lower than this get no label (slim summary rows)

// The pixels an aliased fill of `r` covers: those whose centre lies inside it, as Qt's
// rasterizer picks them. Whole-pixel rectangles take the raster engine's direct fill, about
// ten times faster than a QRectF, which it fills as a path, span by span.
// std::ceil is a library call on the baseline x86-64 this builds for; the painter's
// coordinates are small (clamped near the widget), so an int conversion does.
int ceilOf(double v) {
    const int i = int(v);
    return i < v ? i + 1 : i;
}
QRect pixelRect(const QRectF& r) {
    const int x0 = ceilOf(r.left() - 0.5), x1 = ceilOf(r.right() - 0.5);
    const int y0 = ceilOf(r.top() - 0.5), y1 = ceilOf(r.bottom() - 0.5);
    return QRect(x0, y0, x1 - x0, y1 - y0);
}

}  // namespace

void TimelineView::paintEvent(QPaintEvent*) {
    QElapsedTimer timer;
    timer.start();
    QPainter p(this);
    const QRect area = laneArea();
    // No times on a span guessed for reports still loading.
    const RulerTicks ticks =
        spanKnown_ ? rulerTicks(viewport_.visibleBegin(), viewport_.visibleEnd(), area.width(), viewport_.wholeBegin())
                   : RulerTicks{};
    // Few, large fills and one call per kind of line: the raster engine's cost is per call.
    p.fillRect(QRect(0, kRulerHeight, headerWidth_, height()), palette_.headerBackground);
    p.fillRect(QRect(headerWidth_, kRulerHeight, width() - headerWidth_, height()), palette_.background);

    p.save();
    p.setClipRect(QRect(0, kRulerHeight, width(), area.height()));
    const int offset = kRulerHeight - scrollY();
    const auto& rows = layout_.rows();
    auto first =
        std::upper_bound(rows.begin(), rows.end(), scrollY(), [](int y, const LayoutRow& r) { return y < r.y; });
    if (first != rows.begin()) --first;
    auto last = first;
    while (last != rows.end() && last->y + offset < area.bottom()) ++last;
    // Row stripes and the time grid behind the events.
    std::vector<QRect> stripes;
    std::vector<QLine> separators;
    for (auto it = first; it != last; ++it) {
        const int top = it->y + offset;
        if ((it - rows.begin()) % 2) stripes.emplace_back(headerWidth_, top, area.width(), it->height);
        separators.emplace_back(0, top + it->height - 1, headerWidth_, top + it->height - 1);
    }
    p.setPen(Qt::NoPen);
    p.setBrush(palette_.alternateRow);
    p.drawRects(stripes.data(), int(stripes.size()));
    std::vector<QLine> grid;
    for (int64_t t : ticks.times) grid.emplace_back(int(xOf(t)), kRulerHeight, int(xOf(t)), area.bottom());
    p.setPen(palette_.gridOpaque);
    p.drawLines(grid.data(), int(grid.size()));
    for (auto it = first; it != last; ++it) paintRow(p, *it, it->y + offset);
    p.setPen(palette_.grid);
    p.drawLines(separators.data(), int(separators.size()));
    p.restore();

    paintRuler(p, ticks);
    paintOverlays(p);
    p.setPen(palette_.grid);
    p.drawLine(headerWidth_ - 1, 0, headerWidth_ - 1, height());
    if (rows.empty()) {
        p.setPen(palette_.headerText);
        p.drawText(area, Qt::AlignCenter, layout_.reports().empty() ? emptyText_ : QString("No rows match the filter"));
    }
    lastFrameMs_ = timer.nsecsElapsed() / 1e6;
    // Drawn with every deferred lane it asked for built: the reports shown are settled.
    if (deferredPending_ == 0) settleShownReports();
    emit framePainted(int(rows.size()));
    if (showFrameTime_) {
        p.setPen(Qt::red);
        p.drawText(area.adjusted(0, 4, -8, 0), Qt::AlignRight | Qt::AlignTop,
                   QString("%1 ms").arg(lastFrameMs_, 0, 'f', 2));
    }
}

void TimelineView::paintRuler(QPainter& p, const RulerTicks& ticks) {
    p.fillRect(QRect(0, 0, width(), kRulerHeight), palette_.rulerBackground);
    p.setPen(palette_.grid);
    p.drawLine(0, kRulerHeight - 1, width(), kRulerHeight - 1);
    p.setPen(palette_.rulerText);
    const int64_t origin = viewport_.wholeBegin();
    p.drawText(QRect(8, 0, headerWidth_ - 16, kRulerHeight), Qt::AlignVCenter | Qt::AlignLeft,
               spanKnown_ ? QString("%1 visible").arg(qs(formatDuration(viewport_.visibleSpan(), 3)))
                          : QString("Reading the events…"));
    p.save();
    p.setClipRect(QRect(headerWidth_, 0, laneArea().width(), kRulerHeight));
    std::vector<QLine> marks;
    for (int64_t t : ticks.times) marks.emplace_back(int(xOf(t)), kRulerHeight - 7, int(xOf(t)), kRulerHeight - 1);
    p.drawLines(marks.data(), int(marks.size()));
    for (int64_t t : ticks.times) {
        const int x = int(xOf(t));
        p.drawText(QRect(x + 3, 2, 140, kRulerHeight - 6), Qt::AlignLeft | Qt::AlignVCenter,
                   qs(formatTick(t, origin, ticks.step_ns)));
    }
    p.restore();
}

void TimelineView::paintRow(QPainter& p, const LayoutRow& row, int top) {
    if (row.loading)
        paintLoadingRow(p, row, top);
    else if (row.type == Row::Type::Counter)
        paintCounterRow(p, row, top);
    else if (!row.lanes.empty())
        paintLaneRow(p, row, top);
    if (!marked_.empty() && !row.lanes.empty()) paintMarkedSamples(p, row, top);
    paintHeader(p, row, top);
}

void TimelineView::paintHeader(QPainter& p, const LayoutRow& row, int top) {
    const int indent = 8 + row.level * 14;
    const int lineHeight = std::min(row.height, RowLayout::kGroupPx);
    if (std::find(selectedRows_.begin(), selectedRows_.end(), row.key) != selectedRows_.end()) {
        p.fillRect(QRect(0, top, headerWidth_ - 1, row.height), palette_.selection);
        p.fillRect(QRect(0, top, 3, row.height), palette_.selectionEdge);
    }
    if (row.expandable) {
        QPainterPath arrow;
        const QPointF c(indent + 5, top + lineHeight / 2.0);
        if (row.expanded)
            arrow.addPolygon(QPolygonF({c + QPointF(-4, -2), c + QPointF(4, -2), c + QPointF(0, 3)}));
        else
            arrow.addPolygon(QPolygonF({c + QPointF(-2, -4), c + QPointF(3, 0), c + QPointF(-2, 4)}));
        p.setRenderHint(QPainter::Antialiasing, true);
        p.fillPath(arrow, palette_.headerText);
        p.setRenderHint(QPainter::Antialiasing, false);
    }
    QFont font = p.font();
    const qreal pointSize = font.pointSizeF();
    font.setBold(row.type == Row::Type::Report || row.type == Row::Type::Gpu || row.type == Row::Type::Process);
    if (lineHeight < RowLayout::kGroupPx) font.setPointSizeF(pointSize * 0.85);  // a slim summary row
    p.setFont(font);
    p.setPen(palette_.headerText);
    const QRect text(indent + 14, top, headerWidth_ - indent - 20, lineHeight);
    const QStaticText& label = textCache_->elided(qs(row.label), text.width(), Qt::ElideMiddle, p.font());
    p.drawStaticText(QPointF(text.left(), text.top() + (text.height() - p.fontMetrics().height()) / 2.0), label);
    font.setBold(false);
    font.setPointSizeF(pointSize);
    p.setFont(font);
}

void TimelineView::paintLaneRow(QPainter& p, const LayoutRow& row, int top) {
    const QRect area = laneArea();
    const Report& report = *layout_.reports()[row.report];
    if (row.type == Row::Type::Lane)
        for (int lane : row.lanes)
            if (isDeferredLane(report, size_t(lane))) requestDeferredLane(row.report, lane);
    const RowPaint& cached = rowPaint(row);
    const PixelMapping map = mapping(row.report);
    const int64_t visibleEnd = map.end_ns();
    const int boxHeight = row.boxHeight();
    // The boxes holding an event in sight, as buildLaneBoxes emits them for this view.
    auto inSight = [&](const TimeBox& b) { return b.start_ns < visibleEnd && b.end_ns > map.begin_ns; };
    auto rectOf = [&](const TimeBox& b) {
        const BoxPixels px = boxPixels(map, b.start_ns, b.end_ns);
        const double x0 = std::max<double>(px.x0, -2) + area.left();
        const double x1 = std::min<double>(px.x1, area.width() + 2) + area.left();
        return QRectF(x0, top + RowLayout::kPaddingPx / 2 + b.depth * RowLayout::kDepthPx,
                      std::max(1.0, x1 - x0 - (x1 - x0 > kSeparatorMinPx ? 1 : 0)), boxHeight);
    };
    // Fill rectangles one colour at a time, then markers, then labels on top.
    p.setPen(Qt::NoPen);
    for (const auto& [color, boxes] : cached.fills) {
        frameRects_.clear();
        for (const TimeBox& b : boxes) {
            if (!inSight(b)) continue;
            const QRect r = pixelRect(rectOf(b));
            // Same colour, same row of boxes, touching the one before (boxes of a depth come
            // left to right): one rectangle of their union, the same pixels in one fill.
            if (!frameRects_.empty()) {
                QRect& last = frameRects_.back();
                if (last.top() == r.top() && last.bottom() == r.bottom() && r.left() >= last.left() &&
                    r.left() <= last.right() + 1) {
                    last.setRight(std::max(last.right(), r.right()));
                    continue;
                }
            }
            frameRects_.push_back(r);
        }
        if (frameRects_.empty()) continue;
        p.setBrush(QColor(color));
        p.drawRects(frameRects_.data(), int(frameRects_.size()));
    }
    for (int laneIndex : row.lanes) {
        const Lane& lane = report.lanes[laneIndex];
        if (lane.instants.size() == 0) continue;
        const std::vector<MarkerBox>& markers = laneMarkers(row.report, laneIndex);
        frameRects_.clear();
        QRgb color = 0xFF444444;
        if (lane.kind == LaneKind::CpuSamples) {
            paintSampleDensity(lane, markers, top, row.height, frameRects_);
            color = palette_.dark ? 0xFF6FBF73 : 0xFF3F8F45;
        } else if (lane.kind == LaneKind::GpuStream) {  // CUDA event records: short ticks above the work
            for (const MarkerBox& m : markers)
                frameRects_.push_back(pixelRect(QRectF(m.x + area.left() - 1, top, 3, std::max(4, row.height / 3))));
            color = palette_.dark ? 0xFFF0C040 : 0xFFB07800;
        } else {  // markers: thin ticks over the row
            for (const MarkerBox& m : markers)
                frameRects_.push_back(pixelRect(QRectF(m.x + area.left() - 1, top + 1, 2, row.height - 2)));
            if (lane.kind == LaneKind::UmCpuPageFaults) color = palette_.dark ? 0xFFFF8A5C : 0xFFD0502A;
        }
        p.setBrush(QColor(color));
        p.drawRects(frameRects_.data(), int(frameRects_.size()));
    }
    p.setBrush(Qt::NoBrush);
    if (boxHeight < kMinTextHeightPx) return;
    for (const LabelBox& l : cached.labels) {
        if (!inSight(l.box)) continue;
        const QRectF r = rectOf(l.box);
        if (r.width() < kMinLabelPx) continue;
        p.setPen(QColor(EventColors::textOn(l.color)));
        const QRectF text = r.adjusted(3, 0, -2, 0).intersected(QRectF(area));
        if (text.width() < 12) continue;
        const QString name = qs(report.str(l.lane->events.name_id[l.event]));
        const QStaticText& label = textCache_->elided(name, int(text.width()), Qt::ElideRight, p.font());
        if (label.text().isEmpty() || label.text() == QStringLiteral("…")) continue;
        p.drawStaticText(QPointF(text.left(), text.top() + (text.height() - p.fontMetrics().height()) / 2.0), label);
    }
}

// A row of a report still loading: where its events will be, a band hatched in the grid's
// colour; on its report's row, what is going on.
void TimelineView::paintLoadingRow(QPainter& p, const LayoutRow& row, int top) {
    const QRect area = laneArea();
    const bool band = row.type == Row::Type::Lane || row.type == Row::Type::Gpu || !row.expanded;
    if (band) {
        const int height = row.type == Row::Type::Lane ? row.boxHeight() : RowLayout::kDepthPx - 2;
        const QRect rect(area.left(), top + RowLayout::kPaddingPx / 2, area.width(), height);
        QColor fill = palette_.grid, hatch = palette_.grid;
        fill.setAlpha(fill.alpha() / 2);
        hatch.setAlpha(std::min(255, hatch.alpha() * 2));
        p.fillRect(rect, fill);
        p.setBrushOrigin(area.left(), 0);  // stripes run on across rows as one pattern
        p.fillRect(rect, QBrush(hatch, Qt::BDiagPattern));
    }
    if (row.type != Row::Type::Report) return;
    QFont font = p.font();
    font.setItalic(true);
    p.setFont(font);
    QColor text = palette_.headerText;
    text.setAlpha(170);
    p.setPen(text);
    const int lineHeight = std::min(row.height, RowLayout::kGroupPx);
    const QString caption = row.expanded ? "Loading: the rows found so far; their events once read" : "Loading";
    const QRect where(area.left() + 8, top, area.width() - 16, lineHeight);
    if (band) {  // on the band, its own background behind the words
        const int width = p.fontMetrics().horizontalAdvance(caption) + 12;
        p.fillRect(QRect(where.left() - 6, top + RowLayout::kPaddingPx / 2, width, lineHeight - RowLayout::kPaddingPx),
                   palette_.background);
    }
    p.drawText(where, Qt::AlignVCenter | Qt::AlignLeft, caption);
    font.setItalic(false);
    p.setFont(font);
}

// CPU samples as a utilisation strip: each run of samples merged into a few pixels is a bar
// whose height is the share of that time the thread ran, estimated as samples times the
// sampling period over the run's length (a thread is sampled only while it runs). Zoomed in
// far enough that runs hold one sample, the bars become full-height ticks.
void TimelineView::paintSampleDensity(const Lane& lane, const std::vector<MarkerBox>& markers, int top, int height,
                                      std::vector<QRect>& out) {
    const QRect area = laneArea();
    const int64_t period = samplePeriod(lane);
    const double nsPerPx = double(viewport_.visibleSpan()) / std::max(1.0, double(area.width()));
    for (const MarkerBox& m : markers) {
        const double x = m.x + area.left();
        const double spanPx = std::max(2.0, double(m.count) * double(period) / nsPerPx);
        const double width = std::max(2.0, std::min(spanPx, 6.0));
        const double share = m.count == 1 ? 1.0 : std::min(1.0, double(m.count) * double(period) / (width * nsPerPx));
        const double h = std::max(3.0, (height - 4) * share);
        out.push_back(pixelRect(QRectF(x, top + height - 2 - h, width, h)));
    }
}

int64_t TimelineView::samplePeriod(const Lane& lane) {
    auto [it, inserted] = samplePeriods_.try_emplace(&lane, 1000000);  // 1 ms until known
    if (!inserted) return it->second;
    const auto& t = lane.instants.time_ns;
    std::vector<int64_t> gaps;
    for (size_t i = 1; i < t.size(); ++i)
        if (t[i] > t[i - 1]) gaps.push_back(t[i] - t[i - 1]);
    if (!gaps.empty()) {  // the 10th percentile gap: back-to-back samples of a running thread
        auto at = gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 10);
        std::nth_element(gaps.begin(), at, gaps.end());
        it->second = std::max<int64_t>(1, *at);
    }
    return it->second;
}

void TimelineView::paintMarkedSamples(QPainter& p, const LayoutRow& row, int top) {
    const QRect area = laneArea();
    const PixelMapping map = mapping(row.report);
    const Report& report = *layout_.reports()[row.report];
    std::vector<QRectF> ticks;  // one per pixel column holding any marked sample
    for (const MarkedSamples& marked : marked_) {
        if (marked.report != row.report ||
            std::find(row.lanes.begin(), row.lanes.end(), int(marked.lane)) == row.lanes.end())
            continue;
        const Column<int64_t>& time = report.lanes[marked.lane].instants.time_ns;
        const auto before = [&](int64_t t) { return [&time, t](uint32_t i) { return time[i] < t; }; };
        // Jump from pixel column to pixel column: O(columns x log n) however many are marked.
        auto it = std::partition_point(marked.instants.begin(), marked.instants.end(), before(map.begin_ns));
        while (it != marked.instants.end()) {
            const double x = map.toX(time[*it]);
            if (x >= area.width() + 1) break;
            ticks.emplace_back(area.left() + std::floor(x) - 1, top + 1, 3, row.height - 2);
            it = std::partition_point(std::next(it), marked.instants.end(), before(map.toTime(std::floor(x) + 1)));
        }
    }
    if (ticks.empty()) return;
    p.setPen(Qt::NoPen);
    p.setBrush(palette_.markedSample);
    p.drawRects(ticks.data(), int(ticks.size()));
}

void TimelineView::paintCounterRow(QPainter& p, const LayoutRow& row, int top) {
    const Report& report = *layout_.reports()[row.report];
    const Counter& counter = report.counters[row.index];
    const QRect area = laneArea();
    if (counter.value.empty()) return;
    const CounterSummary& summary = ReportSummaries::of(report).counter(size_t(row.index));
    const double minV = std::min(0.0, summary.min_value), maxV = std::max(summary.max_value, minV + 1e-9);
    const int chartTop = top + 4, chartHeight = row.height - 8;
    auto yOf = [&](double v) { return chartTop + chartHeight - (v - minV) / (maxV - minV) * chartHeight; };
    const auto columns = buildCounterColumns(counter.time_ns, counter.value, mapping(row.report), &summary);
    // The area under each pixel column's highest sample, as one rectangle per run of columns
    // of the same height: a path through every column's highest and last values took Qt's
    // rasterizer 350 ms for 22 rows of 1.7 M samples each (a path edge per column, across the
    // whole chart), where rectangles are spans it fills at once.
    const QColor fill(row.label.find("memory") != std::string::npos ? 0xFF8E6BBF : 0xFF2E86C1);
    QColor translucent = fill;
    translucent.setAlpha(150);
    const int base = int(std::lround(yOf(minV)));
    for (size_t x = 0; x < columns.size();) {
        if (!columns[x].has_value) {
            ++x;
            continue;
        }
        const int y = int(std::lround(yOf(columns[x].max)));
        size_t end = x + 1;
        while (end < columns.size() && columns[end].has_value && int(std::lround(yOf(columns[end].max))) == y) ++end;
        if (y < base) p.fillRect(QRect(area.left() + int(x), y, int(end - x), base - y), translucent);
        x = end;
    }
    p.setPen(palette_.headerText);
    QFont small = p.font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    const QString unit = qs(report.str(counter.unit_id));
    auto number = [&](double v) {
        return unit == "bytes" ? QLocale().formattedDataSize(qint64(v)) : qs(formatCounterValue(v));
    };
    // The top of the scale is labelled only when a sample reaches above its bottom: a counter at
    // 0 throughout (an idle engine's metric) shows its 0 alone, not the scale's tiny headroom.
    if (summary.max_value > minV)
        p.drawText(QRect(area.left() + 4, top + 1, 200, 14), Qt::AlignLeft | Qt::AlignTop,
                   number(summary.max_value) + " " + (unit == "bytes" ? "" : unit));
    p.drawText(QRect(area.left() + 4, top + row.height - 15, 200, 14), Qt::AlignLeft | Qt::AlignBottom, number(minV));
    small.setPointSizeF(small.pointSizeF() / 0.85);
    p.setFont(small);
}

void TimelineView::paintPathOverlay(QPainter& p) {
    const PathOverlay& o = path_;
    const QRect area = laneArea();
    if (o.empty() || area.width() <= 0 || reports_.empty()) return;
    // Only the segments that may be in sight: the visible range in each report's own times.
    int64_t minOffset = 0, maxOffset = 0;
    for (size_t r = 0; r < reports_.size(); ++r) {
        minOffset = std::min(minOffset, reportOffset(int(r)));
        maxOffset = std::max(maxOffset, reportOffset(int(r)));
    }
    const int64_t from = viewport_.visibleBegin() - maxOffset, to = viewport_.visibleEnd() - minOffset;
    const size_t first = size_t(std::lower_bound(o.end_ns.begin(), o.end_ns.end(), from) - o.end_ns.begin());
    const size_t last = size_t(std::upper_bound(o.start_ns.begin(), o.start_ns.end(), to) - o.start_ns.begin());
    // The row each lane is drawn in, as rowShowing finds it: its own row, else a summary row.
    const int offsetY = kRulerHeight - scrollY();
    std::unordered_map<uint64_t, const LayoutRow*> rowOf;
    for (const LayoutRow& row : layout_.rows()) {
        if (row.y + offsetY + row.height < area.top() || row.y + offsetY > area.bottom()) continue;
        for (int lane : row.lanes) {
            const uint64_t key = (uint64_t(uint32_t(row.report)) << 32) | uint32_t(lane);
            auto [it, added] = rowOf.emplace(key, &row);
            if (!added && it->second->type != Row::Type::Lane && row.type == Row::Type::Lane) it->second = &row;
        }
    }
    // Each segment in sight as a rectangle; items of one box row touching within a pixel merged.
    struct Shape {
        QRect rect;
        bool item;
    };
    std::vector<Shape> shapes;
    std::vector<QLine> joins;
    std::unordered_map<uint64_t, size_t> lastInBand;  // box row (top, item or gap) -> its last shape
    QRect previous;
    bool havePrevious = false;
    for (size_t i = first; i < last && i < o.size(); ++i) {
        if (o.lane[i] < 0 || o.report[i] < 0 || size_t(o.report[i]) >= reports_.size()) continue;
        const auto found = rowOf.find((uint64_t(uint32_t(o.report[i])) << 32) | uint32_t(o.lane[i]));
        if (found == rowOf.end()) continue;  // collapsed away, hidden or out of sight
        const LayoutRow& row = *found->second;
        const bool item = o.item[i] != 0;
        int depth = 0;
        if (item && row.type == Row::Type::Lane && o.event[i] >= 0) {
            const Lane& lane = shownLane(o.report[i], o.lane[i]);
            if (size_t(o.event[i]) < lane.events.depth.size()) depth = lane.events.depth[size_t(o.event[i])];
        }
        const int top = row.y + offsetY + RowLayout::kPaddingPx / 2 + depth * RowLayout::kDepthPx;
        const int64_t offset = reportOffset(o.report[i]);
        const int x0 = int(std::floor(std::max(-1e6, xOf(o.start_ns[i] + offset))));
        const int x1 = std::max(x0 + 2, int(std::ceil(std::min(1e7, xOf(o.end_ns[i] + offset)))));
        QRect rect;
        if (item) {
            rect = QRect(QPoint(x0, top), QPoint(x1, top + row.boxHeight()));
        } else {  // a gap: a thin bar across the middle of the row's first box row
            const int mid = top + row.boxHeight() / 2;
            rect = QRect(QPoint(x0, mid - 2), QPoint(x1, mid + 2));
        }
        // Joined to the segment before when on another row (once per pixel line: zoomed out,
        // many segments share one).
        if (havePrevious && previous.center().y() != rect.center().y()) {
            const QLine line(previous.right() + 1, previous.center().y(), rect.left(), rect.center().y());
            if (joins.empty() || joins.back() != line) joins.push_back(line);
        }
        previous = rect;
        havePrevious = true;
        // Merged into the last shape of its box row when they touch within a pixel.
        const uint64_t band = (uint64_t(uint32_t(rect.top())) << 1) | uint64_t(item);
        auto [at, added] = lastInBand.emplace(band, shapes.size());
        if (!added) {
            QRect& before = shapes[at->second].rect;
            if (before.bottom() == rect.bottom() && rect.left() <= before.right() + 1) {
                before.setRight(std::max(before.right(), rect.right()));
                continue;
            }
            at->second = shapes.size();
        }
        shapes.push_back({rect, item});
    }
    p.save();
    p.setClipRect(area);
    // Everything but the path's items dimmed: the lane area less the items' boxes (which do not
    // overlap: one path, one time each), one fill.
    QPainterPath dim;
    dim.setFillRule(Qt::OddEvenFill);
    dim.addRect(QRectF(area));
    for (const Shape& s : shapes)
        if (s.item) dim.addRect(QRectF(s.rect.adjusted(0, 0, 1, 1)).intersected(QRectF(area)));
    QColor veil = palette_.background;
    veil.setAlpha(170);
    p.setPen(Qt::NoPen);
    p.setBrush(veil);
    p.drawPath(dim);
    const QColor edge = palette_.pathEdge;
    // Consecutive segments on different rows joined by a thin line, end to start.
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(edge, 1.2));
    p.setBrush(Qt::NoBrush);
    for (const QLine& line : joins)
        p.drawLine(QPointF(line.p1()) + QPointF(0, 0.5), QPointF(line.p2()) + QPointF(0, 0.5));
    p.setRenderHint(QPainter::Antialiasing, false);
    // Gaps: a thin hatched bar; items: outlined.
    QColor hatch = edge;
    p.setPen(Qt::NoPen);
    p.setBrush(QBrush(hatch, Qt::Dense4Pattern));
    for (const Shape& s : shapes)
        if (!s.item) p.drawRect(s.rect);
    p.setPen(QPen(edge, 2));
    p.setBrush(Qt::NoBrush);
    for (const Shape& s : shapes)
        if (s.item) p.drawRect(s.rect.adjusted(-1, -1, 1, 1));
    p.restore();
}

void TimelineView::paintOverlays(QPainter& p) {
    paintPathOverlay(p);
    const QRect area = laneArea();
    p.save();
    p.setClipRect(QRect(headerWidth_, 0, area.width(), area.bottom()));
    // Time range selection with its duration.
    if (range_ && range_->second > range_->first) {
        const int x0 = int(xOf(range_->first)), x1 = int(xOf(range_->second));
        p.fillRect(QRect(QPoint(x0, 0), QPoint(x1, area.bottom())), palette_.selection);
        p.setPen(palette_.selectionEdge);
        p.drawLine(x0, 0, x0, area.bottom());
        p.drawLine(x1, 0, x1, area.bottom());
        const QString label = qs(formatDuration(range_->second - range_->first));
        const QRect box(std::max(x0, headerWidth_) + 4, kRulerHeight + 4, p.fontMetrics().horizontalAdvance(label) + 12,
                        20);
        p.fillRect(box, palette_.selectionEdge);
        p.setPen(Qt::white);
        p.drawText(box, Qt::AlignCenter, label);
    }
    // Markers.
    for (const TimeMarker& m : markers_) {
        const int x = int(xOf(m.time_ns));
        p.setPen(QPen(palette_.marker, 1, Qt::DashLine));
        p.drawLine(x, 0, x, area.bottom());
        p.setPen(palette_.marker);
        p.drawText(QRect(x + 3, 0, 160, 12), Qt::AlignLeft | Qt::AlignTop, m.name);
    }
    // Linked events (launcher / launched), joined to the selection by lines.
    p.setRenderHint(QPainter::Antialiasing, true);
    const QRect selectedRect = selected_ ? eventRect(*selected_) : QRect();
    for (const ViewEvent& ev : linked_) {
        const QRect r = eventRect(ev);
        if (r.isEmpty()) continue;
        p.setPen(QPen(palette_.selectionEdge, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r.adjusted(-1, -1, 1, 1));
        if (!selectedRect.isEmpty()) {
            QPainterPath link;
            const QPointF a(selectedRect.left(), selectedRect.center().y()), b(r.left(), r.center().y());
            link.moveTo(a);
            link.cubicTo(a + QPointF(-30, 0), b + QPointF(-30, 0), b);
            p.setPen(QPen(palette_.selectionEdge, 1.5, Qt::DashLine));
            p.drawPath(link);
        }
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    if (hovered_ && hovered_ != selected_) {
        const QRect r = eventRect(*hovered_);
        p.setPen(QPen(palette_.hover, 1));
        p.setBrush(Qt::NoBrush);
        if (!r.isEmpty()) p.drawRect(r);
    }
    if (!selectedRect.isEmpty()) {
        p.setPen(QPen(palette_.selectionEdge, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(selectedRect.adjusted(-1, -1, 1, 1));
    }
    if (selectedInstant_) {  // a bracket around the picked sample or marker, the row's height
        const ViewInstant& in = *selectedInstant_;
        if (const LayoutRow* row = rowShowing({in.report, in.lane, 0})) {
            const Lane& lane = layout_.reports()[in.report]->lanes[in.lane];
            const int x = int(std::floor(xOf(lane.instants.time_ns[in.instant] + reportOffset(in.report))));
            const int top = row->y - scrollY() + kRulerHeight;
            p.setPen(QPen(palette_.selectionEdge, 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(QRect(x - 3, top + 1, 6, row->height - 3));
        }
    }
    p.restore();
}

}  // namespace lanescope
