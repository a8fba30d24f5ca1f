#include "timeline/TimelineView.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "timeline/HitTest.h"
#include "timeline/ReportSummaries.h"
#include "timeline/TextCache.h"
#include "timeline/TimeFormat.h"

namespace lanescope {
namespace {

constexpr int kScrollSteps = 4096;  // horizontal scrollbar resolution: about a step per pixel
constexpr int kClickSlopPx = 4;     // a press and release closer than this is a click, not a drag

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

// The index of each colour's group among a row's colour groups, by open addressing on a
// table twice the number of colours or more (a row has a few dozen; a node-based hash map
// would cost a cache miss per box).
class ColourSlots {
public:
    // The group of `color`; `next` (the number of groups so far) when it has none yet,
    // which it then gets.
    size_t find(QRgb color, size_t next) {
        if (next * 2 >= slots_.size()) grow();
        for (size_t i = slotOf(color);; i = (i + 1) & (slots_.size() - 1)) {
            if (slots_[i].group == kEmpty) {
                slots_[i] = {color, next};
                return next;
            }
            if (slots_[i].color == color) return slots_[i].group;
        }
    }

private:
    struct Slot {
        QRgb color;
        size_t group;
    };
    static constexpr size_t kEmpty = SIZE_MAX;
    size_t slotOf(QRgb color) const { return (uint32_t(color) * 2654435761u) >> (32 - bits_); }
    void grow() {
        std::vector<Slot> old = std::move(slots_);
        ++bits_;
        slots_.assign(size_t(1) << bits_, {0, kEmpty});
        for (const Slot& s : old)
            if (s.group != kEmpty) {
                size_t i = slotOf(s.color);
                while (slots_[i].group != kEmpty) i = (i + 1) & (slots_.size() - 1);
                slots_[i] = s;
            }
    }
    int bits_ = 5;
    std::vector<Slot> slots_ = std::vector<Slot>(32, {0, kEmpty});
};

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent), textCache_(std::make_unique<TextCache>()) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(400, 200);
    vertical_ = new QScrollBar(Qt::Vertical, this);
    horizontal_ = new QScrollBar(Qt::Horizontal, this);
    vertical_->setToolTip("Scroll rows");
    horizontal_->setToolTip("Pan in time");
    connect(vertical_, &QScrollBar::valueChanged, this, [this] { update(); });
    connect(horizontal_, &QScrollBar::valueChanged, this, [this](int value) {
        if (updatingScrollBars_) return;
        const double whole = double(viewport_.wholeEnd() - viewport_.wholeBegin());
        const int64_t begin = viewport_.wholeBegin() + static_cast<int64_t>(whole * value / kScrollSteps);
        viewport_.setVisible(begin, begin + viewport_.visibleSpan());
        viewportMoved();
    });
    palette_ = TimelinePalette::from(palette());
    showFrameTime_ = qEnvironmentVariableIsSet("LANESCOPE_FRAME_TIME");
    lastWheel_.start();
}

TimelineView::~TimelineView() = default;

void TimelineView::setReports(std::vector<std::shared_ptr<const Report>> reports) {
    colors_.clear();
    samplePeriods_.clear();
    for (const auto& r : reports) colors_.push_back(std::make_unique<EventColors>(*r));
    offsets_.resize(reports.size(), 0);
    layout_.setReports(std::move(reports), RowOrder::GpuFirst);
    updateWhole();
    selected_.reset();
    selectedInstant_.reset();
    hovered_.reset();
    linked_.clear();
    marked_.clear();
    range_.reset();
    selectedRows_.clear();
    rowsChanged();
    viewportMoved();
}

void TimelineView::updateWhole() {
    int64_t begin = INT64_MAX, end = INT64_MIN;
    for (size_t i = 0; i < layout_.reports().size(); ++i) {
        begin = std::min(begin, layout_.reports()[i]->meta.begin_ns + offsets_[i]);
        end = std::max(end, layout_.reports()[i]->meta.end_ns + offsets_[i]);
    }
    if (begin < end) viewport_.setWhole(begin, end);
}

void TimelineView::setReportOffsets(std::vector<int64_t> offsets) {
    offsets.resize(layout_.reports().size(), 0);
    if (offsets == offsets_) return;
    offsets_ = std::move(offsets);
    const int64_t begin = viewport_.visibleBegin(), end = viewport_.visibleEnd();
    updateWhole();
    viewport_.setVisible(begin, end);
    dropGeometry();
    viewportMoved();
}

void TimelineView::setSelectedRows(std::vector<std::string> keys) {
    selectedRows_ = std::move(keys);
    update();
}

std::vector<ViewLane> TimelineView::selectedRowLanes() const {
    std::vector<ViewLane> lanes;
    auto add = [&lanes](const LayoutRow& row) {
        if (row.type != Row::Type::Lane) return;
        const ViewLane lane{row.report, uint32_t(row.index)};
        if (std::find(lanes.begin(), lanes.end(), lane) == lanes.end()) lanes.push_back(lane);
    };
    const std::vector<LayoutRow>& rows = layout_.rows();
    for (size_t i = 0; i < rows.size(); ++i) {
        if (std::find(selectedRows_.begin(), selectedRows_.end(), rows[i].key) == selectedRows_.end()) continue;
        add(rows[i]);
        for (int lane : rows[i].lanes)  // a collapsed group draws its descendants' lanes
            if (std::find(lanes.begin(), lanes.end(), ViewLane{rows[i].report, uint32_t(lane)}) == lanes.end())
                lanes.push_back({rows[i].report, uint32_t(lane)});
        for (size_t j = i + 1; j < rows.size() && rows[j].level > rows[i].level; ++j) add(rows[j]);
    }
    return lanes;
}

void TimelineView::dropGeometry() {
    builtWindow_ = {};  // rebuilt, with the row paints, on the next frame
    markerCache_.clear();
    markersMapping_ = {};
}

void TimelineView::rowsChanged() {
    dropGeometry();
    updateScrollBars();
    update();
}

QRect TimelineView::laneArea() const {
    return QRect(headerWidth_, kRulerHeight, std::max(1, width() - headerWidth_ - vertical_->sizeHint().width()),
                 std::max(1, height() - kRulerHeight - horizontal_->sizeHint().height()));
}

int TimelineView::scrollY() const { return vertical_->value(); }

PixelMapping TimelineView::mapping() const {
    return PixelMapping::of(viewport_.visibleBegin(), viewport_.visibleEnd(), laneArea().width());
}

PixelMapping TimelineView::mapping(int report) const {
    PixelMapping m = mapping();
    m.begin_ns -= reportOffset(report);
    return m;
}

double TimelineView::xOf(int64_t t) const { return headerWidth_ + mapping().toX(t); }
int64_t TimelineView::timeAt(double x) const { return mapping().toTime(x - headerWidth_); }

void TimelineView::updateScrollBars() {
    updatingScrollBars_ = true;
    const QRect area = laneArea();
    const int sb = vertical_->sizeHint().width(), hb = horizontal_->sizeHint().height();
    vertical_->setGeometry(width() - sb, kRulerHeight, sb, height() - kRulerHeight - hb);
    horizontal_->setGeometry(headerWidth_, height() - hb, width() - headerWidth_ - sb, hb);
    vertical_->setRange(0, std::max(0, layout_.totalHeight() - area.height()));
    vertical_->setPageStep(area.height());
    vertical_->setSingleStep(RowLayout::kDepthPx);
    const double whole = double(viewport_.wholeEnd() - viewport_.wholeBegin());
    const int page = std::max(1, static_cast<int>(kScrollSteps * viewport_.visibleSpan() / whole));
    horizontal_->setRange(0, kScrollSteps - page);
    horizontal_->setPageStep(page);
    horizontal_->setSingleStep(std::max(1, page / 10));
    horizontal_->setValue(static_cast<int>(kScrollSteps * (viewport_.visibleBegin() - viewport_.wholeBegin()) / whole));
    updatingScrollBars_ = false;
}

void TimelineView::viewportMoved() {
    updateScrollBars();
    update();
    emit viewportChanged();
}

void TimelineView::resizeEvent(QResizeEvent*) { updateScrollBars(); }

void TimelineView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) {
        palette_ = TimelinePalette::from(palette());
        dropGeometry();  // merged boxes' colours follow the theme
        update();
    }
    QWidget::changeEvent(event);
}

void TimelineView::fitBuiltWindow() const {
    const PixelMapping view = mapping();  // shared; offsets_ changes clear the cache too
    if (builtWindow_.width_px > 0 && view.ns_per_px == builtWindow_.ns_per_px && view.width_px == builtViewWidth_ &&
        view.begin_ns >= builtWindow_.begin_ns && view.end_ns() <= builtWindow_.end_ns())
        return;
    cache_.clear();
    rowPaint_.clear();
    const int margin = view.width_px / 2;
    builtWindow_ = {view.begin_ns - static_cast<int64_t>(std::ceil(margin * view.ns_per_px)), view.ns_per_px,
                    view.width_px + 2 * margin + 2};
    builtViewWidth_ = view.width_px;
    ++geometryBuilds_;
}

PixelMapping TimelineView::builtWindow(int report) const {
    fitBuiltWindow();
    PixelMapping m = builtWindow_;
    m.begin_ns -= reportOffset(report);
    return m;
}

double TimelineView::builtX(double laneX) const {
    fitBuiltWindow();
    return laneX + double(viewport_.visibleBegin() - builtWindow_.begin_ns) / builtWindow_.ns_per_px;
}

const TimelineView::LaneCache& TimelineView::geometry(int report, int lane, int maxDepths) const {
    const PixelMapping window = builtWindow(report);
    auto [it, inserted] = cache_.try_emplace({report, lane, maxDepths});
    if (inserted) {
        struct Collect final : GeometrySink {
            LaneCache& out;
            explicit Collect(LaneCache& c) : out(c) {}
            void box(const Box& b) override { out.boxes.push_back(b); }
            void marker(const MarkerBox&) override {}
        } sink(it->second);
        const Report& r = *layout_.reports()[report];
        buildLaneBoxes(r.lanes[lane], window, sink, {}, maxDepths, &ReportSummaries::of(r).lane(size_t(lane)));
    }
    return it->second;
}

const std::vector<MarkerBox>& TimelineView::laneMarkers(int report, int lane) const {
    const PixelMapping map = mapping();
    if (map.begin_ns != markersMapping_.begin_ns || map.ns_per_px != markersMapping_.ns_per_px ||
        map.width_px != markersMapping_.width_px) {
        markerCache_.clear();
        markersMapping_ = map;
    }
    auto [it, inserted] = markerCache_.try_emplace({report, lane});
    if (inserted) {
        struct Collect final : GeometrySink {
            std::vector<MarkerBox>& out;
            explicit Collect(std::vector<MarkerBox>& m) : out(m) {}
            void box(const Box&) override {}
            void marker(const MarkerBox& m) override { out.push_back(m); }
        } sink(it->second);
        buildLaneMarkers(layout_.reports()[report]->lanes[lane], mapping(report), sink);
    }
    return it->second;
}

const TimelineView::RowPaint& TimelineView::rowPaint(const LayoutRow& row) const {
    fitBuiltWindow();
    auto [it, inserted] = rowPaint_.try_emplace(row.key);
    if (!inserted) return it->second;
    const Report& report = *layout_.reports()[row.report];
    EventColors& colors = *colors_[row.report];
    const bool summary = row.type != Row::Type::Lane;
    std::vector<std::pair<QRgb, std::vector<TimeBox>>>& fills = it->second.fills;
    ColourSlots groupOf;
    QRgb lastSource = 0, lastMerged = 0;  // boxes in a row often share a colour: skip the lookup
    const double separatorNs = kSeparatorMinPx * builtWindow_.ns_per_px;  // boxes wider get a 1 px gap
    for (int laneIndex : row.lanes) {
        const Lane& lane = report.lanes[laneIndex];
        const std::vector<Box>& boxes = geometry(row.report, laneIndex, summary ? 1 : 256).boxes;
        for (size_t i = 0; i < boxes.size(); ++i) {
            const Box& b = boxes[i];
            TimeBox box{b.start_ns, b.end_ns, b.depth};
            // A box too narrow for a separator reaches to the next one when they are less than a
            // pixel apart: a dense stretch reads as one, not striped by slivers of background.
            // (Not where several lanes share the row: the gap may show another lane's box.)
            if (row.lanes.size() == 1 && i + 1 < boxes.size() && boxes[i + 1].depth == b.depth &&
                double(boxes[i + 1].start_ns - b.end_ns) < builtWindow_.ns_per_px &&
                double(boxes[i + 1].start_ns - b.start_ns) <= separatorNs)
                box.end_ns = std::max(box.end_ns, boxes[i + 1].start_ns);
            QRgb color = b.color ? b.color : colors.color(lane, b.event(lane));
            if (b.count > 1) {
                if (color != lastSource) lastSource = color, lastMerged = colors.merged(color, palette_.dark);
                color = lastMerged;
            }
            const size_t group = groupOf.find(color, fills.size());
            if (group == fills.size()) fills.emplace_back(color, std::vector<TimeBox>());
            fills[group].second.push_back(box);
            if (b.count == 1 && b.x1 - b.x0 >= kMinLabelPx)
                it->second.labels.push_back({box, color, &lane, b.event(lane)});
        }
    }
    std::sort(fills.begin(), fills.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    return it->second;
}

// ---- navigation ----

void TimelineView::zoomTo(int64_t begin, int64_t end, bool remember) {
    const std::pair<int64_t, int64_t> before{viewport_.visibleBegin(), viewport_.visibleEnd()};
    viewport_.setVisible(begin, end);
    if (remember) emit viewJumped(before);
    viewportMoved();
}

void TimelineView::zoomAround(double factor, int64_t anchor) {
    viewport_.zoom(factor, anchor);
    viewportMoved();
}

void TimelineView::panBy(int64_t delta) {
    viewport_.pan(delta);
    viewportMoved();
}

void TimelineView::fitAll() { zoomTo(viewport_.wholeBegin(), viewport_.wholeEnd()); }

void TimelineView::fitSelection() {
    if (range_) {
        zoomTo(range_->first, range_->second);
    } else if (selected_) {
        const Lane& lane = layout_.reports()[selected_->report]->lanes[selected_->lane];
        const int64_t offset = reportOffset(selected_->report);
        const int64_t s = lane.events.start_ns[selected_->event] + offset,
                      e = lane.events.endNs(selected_->event) + offset;
        const int64_t margin = std::max<int64_t>((e - s) / 10, 50);
        zoomTo(s - margin, e + margin);
    }
}

void TimelineView::setSelectedRange(std::optional<std::pair<int64_t, int64_t>> range) {
    range_ = range;
    update();
    emit rangeSelected(range_);
}

void TimelineView::selectEvent(std::optional<ViewEvent> event, bool reveal) {
    selected_ = event;
    selectedInstant_.reset();
    linked_.clear();
    if (event && reveal) {
        const Lane& lane = layout_.reports()[event->report]->lanes[event->lane];
        const int64_t offset = reportOffset(event->report);
        const int64_t s = lane.events.start_ns[event->event] + offset, e = lane.events.endNs(event->event) + offset;
        const int64_t span = std::max<int64_t>((e - s) * 3, 2000);
        zoomTo(s - (span - (e - s)) / 2, s - (span - (e - s)) / 2 + span);
        if (const LayoutRow* row = rowShowing(*event))
            if (row->y < scrollY() || row->y + row->height > scrollY() + laneArea().height())
                vertical_->setValue(row->y - laneArea().height() / 3);
    }
    update();
    emit eventSelected(selected_);
}

void TimelineView::selectInstant(std::optional<ViewInstant> instant) {
    selectedInstant_ = instant;
    update();
    emit instantSelected(selectedInstant_);
}

void TimelineView::revealReport(int report) {
    const auto group = [&]() -> const LayoutRow* {
        for (const LayoutRow& row : layout_.rows())
            if (row.report == report && row.level == 0) return &row;
        return nullptr;
    };
    const LayoutRow* row = group();
    if (!row) return;
    if (row->expandable && !row->expanded) {
        layout_.setExpanded(row->key, true);
        rowsChanged();
        row = group();
    }
    vertical_->setValue(row->y);
}

void TimelineView::setLinkedEvents(std::vector<ViewEvent> events) {
    linked_ = std::move(events);
    update();
}

void TimelineView::setMarkedSamples(std::vector<MarkedSamples> samples) {
    marked_ = std::move(samples);
    // None of their rows in sight: scroll to the row of the lane with the most.
    bool inSight = false;
    const LayoutRow* busiest = nullptr;
    size_t most = 0;
    for (const MarkedSamples& m : marked_) {
        const LayoutRow* row = rowShowing({m.report, m.lane, 0});
        if (!row) continue;
        inSight |= row->y >= scrollY() && row->y + row->height <= scrollY() + laneArea().height();
        if (m.instants.size() > most) busiest = row, most = m.instants.size();
    }
    if (!inSight && busiest) vertical_->setValue(busiest->y - laneArea().height() / 3);
    update();
}

size_t TimelineView::markedSampleCount() const {
    size_t n = 0;
    for (const MarkedSamples& m : marked_) n += m.instants.size();
    return n;
}

void TimelineView::setMarkers(std::vector<TimeMarker> markers) {
    markers_ = std::move(markers);
    update();
}

void TimelineView::setEmptyText(const QString& text) {
    emptyText_ = text;
    update();
}

// ---- hit testing ----

std::optional<ViewEvent> TimelineView::eventAt(QPoint pos, uint32_t* mergedCount) const {
    const QRect area = laneArea();
    if (!area.contains(pos)) return std::nullopt;
    const LayoutRow* row = layout_.rowAt(pos.y() - kRulerHeight + scrollY());
    if (!row || row->lanes.empty() || row->type == Row::Type::Counter) return std::nullopt;
    const int top = row->y - scrollY() + kRulerHeight;
    const int depth = (pos.y() - top - RowLayout::kPaddingPx / 2) / RowLayout::kDepthPx;
    const bool summary = row->type != Row::Type::Lane;
    for (int lane : row->lanes) {
        const LaneCache& g = geometry(row->report, lane, summary ? 1 : 256);
        if (const Box* b = boxAt(g.boxes, summary ? 0 : depth, builtX(pos.x() - headerWidth_))) {
            if (mergedCount) *mergedCount = b->count;
            return ViewEvent{row->report, uint32_t(lane), b->event(layout_.reports()[row->report]->lanes[lane])};
        }
    }
    return std::nullopt;
}

const LayoutRow* TimelineView::rowShowing(const ViewEvent& ev) const {
    const LayoutRow* summary = nullptr;
    for (const LayoutRow& row : layout_.rows()) {
        if (row.report != ev.report || std::find(row.lanes.begin(), row.lanes.end(), int(ev.lane)) == row.lanes.end())
            continue;
        if (row.type == Row::Type::Lane) return &row;
        if (!summary) summary = &row;
    }
    return summary;
}

QRect TimelineView::eventRect(const ViewEvent& ev) const {
    if (const LayoutRow* found = rowShowing(ev)) {
        const LayoutRow& row = *found;
        const Lane& lane = layout_.reports()[ev.report]->lanes[ev.lane];
        const bool summary = row.type != Row::Type::Lane;
        const int depth = summary ? 0 : lane.events.depth[ev.event];
        const int top = row.y - scrollY() + kRulerHeight + RowLayout::kPaddingPx / 2 + depth * RowLayout::kDepthPx;
        const int64_t offset = reportOffset(ev.report);
        const int x0 = int(std::floor(xOf(lane.events.start_ns[ev.event] + offset)));
        const int x1 = std::max(x0 + 2, int(std::ceil(xOf(lane.events.endNs(ev.event) + offset))));
        return QRect(QPoint(x0, top), QPoint(x1, top + row.boxHeight()));
    }
    return {};
}

// ---- input ----

void TimelineView::wheelEvent(QWheelEvent* event) {
    const QPoint pos = event->position().toPoint();
    const double steps = event->angleDelta().y() / 120.0;
    if (pos.x() < headerWidth_ && !(event->modifiers() & Qt::ControlModifier)) {
        vertical_->setValue(vertical_->value() - int(steps * 3 * RowLayout::kDepthPx));
        return;
    }
    if (event->modifiers() & Qt::ShiftModifier) {
        const double dx = event->angleDelta().x() ? event->angleDelta().x() / 120.0 : steps;
        panBy(static_cast<int64_t>(-dx * 0.1 * double(viewport_.visibleSpan())));
        return;
    }
    // Remember the view before a burst of wheel zooming, not every notch.
    if (lastWheel_.elapsed() > 600) emit viewJumped({viewport_.visibleBegin(), viewport_.visibleEnd()});
    lastWheel_.restart();
    zoomAround(std::pow(1.25, steps), timeAt(std::max<double>(pos.x(), headerWidth_)));
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    setFocus();
    const QPoint pos = event->position().toPoint();
    drag_ = {};
    drag_.origin = pos;
    drag_.button = event->button();
    const bool pan = event->button() == Qt::MiddleButton ||
                     (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    if (pan && pos.x() > headerWidth_ + 3) {  // middle-drag or Shift+drag, lanes or ruler
        drag_.kind = Drag::Kind::Pan;
        drag_.originBegin = viewport_.visibleBegin();
        return;
    }
    if (event->button() != Qt::LeftButton) return;
    if (std::abs(pos.x() - headerWidth_) <= 3) {
        drag_.kind = Drag::Kind::ResizeHeader;
    } else if (pos.x() < headerWidth_) {
        const LayoutRow* row = layout_.rowAt(pos.y() - kRulerHeight + scrollY());
        if (!row || pos.y() < kRulerHeight) return;
        const int arrowRight = 8 + row->level * 14 + 14;
        if (row->expandable && pos.x() < arrowRight) {
            layout_.toggleExpanded(row->key);
            rowsChanged();
            return;
        }
        drag_.kind = Drag::Kind::MoveRow;
        drag_.rowKey = row->key;
        drag_.toggle = event->modifiers() & Qt::ControlModifier;
    } else {  // left-drag on the lanes or the ruler selects a time range; a click selects an event
        drag_.kind = Drag::Kind::Select;
        drag_.onRuler = pos.y() < kRulerHeight;
        drag_.anchorTime = timeAt(pos.x());
    }
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    switch (drag_.kind) {
        case Drag::Kind::Pan: {
            const double nsPerPx = mapping().ns_per_px;
            const int64_t begin = drag_.originBegin - static_cast<int64_t>((pos.x() - drag_.origin.x()) * nsPerPx);
            viewport_.setVisible(begin, begin + viewport_.visibleSpan());
            setCursor(Qt::ClosedHandCursor);
            viewportMoved();
            return;
        }
        case Drag::Kind::Select: {
            // A click that wobbles a pixel or two is still a click: the range starts past that.
            if (!drag_.moved && (pos - drag_.origin).manhattanLength() <= kClickSlopPx) return;
            drag_.moved = true;
            setCursor(Qt::SizeHorCursor);
            const int64_t t = timeAt(std::clamp(pos.x(), headerWidth_, laneArea().right()));
            range_ = std::make_pair(std::min(t, drag_.anchorTime), std::max(t, drag_.anchorTime));
            update();
            return;
        }
        case Drag::Kind::ResizeHeader:
            headerWidth_ = std::clamp(pos.x(), 120, width() / 2);
            rowsChanged();
            return;
        case Drag::Kind::MoveRow:
            if (std::abs(pos.y() - drag_.origin.y()) > 6) setCursor(Qt::DragMoveCursor);
            return;
        case Drag::Kind::None:
            break;
    }
    setCursor(std::abs(pos.x() - headerWidth_) <= 3 ? Qt::SplitHCursor : Qt::ArrowCursor);
    uint32_t merged = 0;
    const auto hover = eventAt(pos, &merged);
    if (hover != hovered_) {
        hovered_ = hover;
        update();
    }
}

// A click on the lanes selects the event under it, else the instant (sample, marker) nearest
// to it, else nothing.
void TimelineView::clickAt(QPoint pos) {
    const std::optional<ViewEvent> event = eventAt(pos);
    selectEvent(event);
    if (!event)
        if (const auto instant = instantAt(pos)) selectInstant(instant);
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    const bool moved = (pos - drag_.origin).manhattanLength() > kClickSlopPx;
    if (drag_.kind == Drag::Kind::Select) {
        if (drag_.moved && range_ && range_->second > range_->first)
            emit rangeSelected(range_);
        else if (drag_.onRuler || drag_.moved)
            setSelectedRange(std::nullopt);  // a click on the ruler clears it
        else
            clickAt(pos);
    } else if (drag_.kind == Drag::Kind::Pan && !moved && drag_.button == Qt::LeftButton) {
        clickAt(pos);  // Shift+click
    } else if (drag_.kind == Drag::Kind::MoveRow && moved) {
        if (const LayoutRow* target = layout_.rowAt(pos.y() - kRulerHeight + scrollY()))
            if (layout_.moveBefore(drag_.rowKey, target->key)) rowsChanged();
    } else if (drag_.kind == Drag::Kind::MoveRow) {  // a click on a row name selects the row
        const auto at = std::find(selectedRows_.begin(), selectedRows_.end(), drag_.rowKey);
        if (!drag_.toggle)
            selectedRows_ = {drag_.rowKey};
        else if (at != selectedRows_.end())
            selectedRows_.erase(at);
        else
            selectedRows_.push_back(drag_.rowKey);
        update();
        emit rowsSelected();
    }
    drag_ = {};
    unsetCursor();
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if (pos.x() < headerWidth_) {
        if (const LayoutRow* row = layout_.rowAt(pos.y() - kRulerHeight + scrollY()); row && row->expandable) {
            layout_.toggleExpanded(row->key);
            rowsChanged();
        }
        return;
    }
    uint32_t merged = 0;
    const auto ev = eventAt(pos, &merged);
    if (!ev) {
        fitSelection();
        return;
    }
    const Lane& lane = layout_.reports()[ev->report]->lanes[ev->lane];
    if (merged > 1) {  // zoom into the merged run
        const uint32_t first = ev->event;
        const int64_t s = lane.events.start_ns[first];
        // The run spans from its first event to the last one merged with it.
        int64_t e = lane.events.endNs(first);
        const LayoutRow* row = layout_.rowAt(pos.y() - kRulerHeight + scrollY());
        const LaneCache& g = geometry(row->report, int(ev->lane), row->type == Row::Type::Lane ? 256 : 1);
        for (const Box& b : g.boxes)
            if (b.event(lane) == first) e = b.end_ns;
        zoomTo(s + reportOffset(ev->report), std::max(e, s + 100) + reportOffset(ev->report));
        return;
    }
    selectEvent(ev);
    fitSelection();
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    const int64_t span = viewport_.visibleSpan();
    const int64_t centre = viewport_.visibleBegin() + span / 2;
    const QPoint cursor = mapFromGlobal(QCursor::pos());
    const int64_t anchor = laneArea().contains(cursor) ? timeAt(cursor.x()) : centre;
    switch (event->key()) {
        case Qt::Key_W:
        case Qt::Key_Up:
            zoomAround(1.5, anchor);
            break;
        case Qt::Key_S:
        case Qt::Key_Down:
            zoomAround(1 / 1.5, anchor);
            break;
        case Qt::Key_A:
        case Qt::Key_Left:
            panBy(-span / 8);
            break;
        case Qt::Key_D:
        case Qt::Key_Right:
            panBy(span / 8);
            break;
        case Qt::Key_F:
            fitSelection();
            break;
        case Qt::Key_Home:
            fitAll();
            break;
        case Qt::Key_Backspace:
            emit backRequested();
            break;
        case Qt::Key_Escape:
            if (!marked_.empty()) {  // first the marked samples, then the selection
                setMarkedSamples({});
                emit markedSamplesCleared();
                break;
            }
            setSelectedRange(std::nullopt);
            selectEvent(std::nullopt);
            if (!selectedRows_.empty()) {
                selectedRows_.clear();
                update();
                emit rowsSelected();
            }
            break;
        case Qt::Key_M:
            if (event->modifiers() & Qt::ControlModifier)
                emit markerRequested(anchor);
            else
                QWidget::keyPressEvent(event);
            break;
        default:
            QWidget::keyPressEvent(event);
    }
}

void TimelineView::contextMenuEvent(QContextMenuEvent* event) {
    const LayoutRow* row = layout_.rowAt(event->pos().y() - kRulerHeight + scrollY());
    QMenu menu(this);
    if (row && event->pos().y() >= kRulerHeight) {
        const std::string key = row->key;
        menu.addAction(QString("Hide “%1”").arg(qs(row->label)), this, [this, key] {
            layout_.hide(key);
            rowsChanged();
        });
        menu.addAction("Show only this", this, [this, key] {
            layout_.showOnly(key);
            rowsChanged();
        });
        if (row->expandable)
            menu.addAction(row->expanded ? "Collapse" : "Expand", this, [this, key] {
                layout_.toggleExpanded(key);
                rowsChanged();
            });
    }
    menu.addAction(QString("Show all rows (%1 hidden)").arg(layout_.hiddenCount()), this,
                   [this] {
                       layout_.showAll();
                       rowsChanged();
                   })
        ->setEnabled(layout_.hiddenCount() > 0);
    menu.addSeparator();
    menu.addAction("Fit all\tHome", this, &TimelineView::fitAll);
    menu.addAction("Zoom back\tBackspace", this, &TimelineView::backRequested);
    menu.exec(event->globalPos());
}

bool TimelineView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        showTooltip(static_cast<QHelpEvent*>(event)->pos());
        return true;
    }
    return QWidget::event(event);
}

void TimelineView::showTooltip(QPoint pos) {
    uint32_t merged = 0;
    const auto ev = eventAt(pos, &merged);
    if (!ev) {
        const QString instant = instantTooltip(pos);
        if (instant.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(mapToGlobal(pos), instant, this);
        return;
    }
    const Report& r = *layout_.reports()[ev->report];
    const Lane& lane = r.lanes[ev->lane];
    QString text;
    if (merged > 1) {
        text = QString("<b>%1 events</b> too small to show at this zoom<br>double-click to zoom in").arg(merged);
    } else {
        const int64_t s = lane.events.start_ns[ev->event], e = lane.events.endNs(ev->event);
        text = QString("<b>%1</b><br>start %2<br>duration %3<br>%4")
                   .arg(qs(r.str(lane.events.name_id[ev->event])).toHtmlEscaped(),
                        qs(formatDuration(s + reportOffset(ev->report) - viewport_.wholeBegin(), 6)),
                        qs(formatDuration(e - s)), qs(r.str(lane.name_id)).toHtmlEscaped());
    }
    QToolTip::showText(mapToGlobal(pos), text, this);
}

std::optional<ViewInstant> TimelineView::instantAt(QPoint pos) const {
    const QRect area = laneArea();
    if (!area.contains(pos)) return {};
    const LayoutRow* row = layout_.rowAt(pos.y() - kRulerHeight + scrollY());
    if (!row || row->type != Row::Type::Lane || row->lanes.empty()) return {};
    const Report& r = *layout_.reports()[row->report];
    const PixelMapping m = mapping(row->report);
    const double x = pos.x() - headerWidth_;
    const int64_t t = m.toTime(x), slack = std::max<int64_t>(1, m.toTime(x + 4) - t);
    // The instant nearest to the cursor, within 4 pixels.
    const Lane* best = nullptr;
    size_t bestIndex = 0;
    int64_t bestDistance = slack + 1;
    for (int li : row->lanes) {
        const Lane& lane = r.lanes[li];
        const auto& times = lane.instants.time_ns;
        for (auto it = std::lower_bound(times.begin(), times.end(), t - slack); it != times.end() && *it <= t + slack;
             ++it)
            if (std::abs(*it - t) < bestDistance) {
                bestDistance = std::abs(*it - t);
                best = &lane;
                bestIndex = static_cast<size_t>(it - times.begin());
            }
    }
    if (!best) return {};
    return ViewInstant{row->report, static_cast<uint32_t>(best - r.lanes.data()), static_cast<uint32_t>(bestIndex)};
}

QString TimelineView::instantTooltip(QPoint pos) const {
    const std::optional<ViewInstant> instant = instantAt(pos);
    if (!instant) return {};
    const Report& r = *layout_.reports()[instant->report];
    const Lane* best = &r.lanes[instant->lane];
    const size_t bestIndex = instant->instant;
    const int64_t at = best->instants.time_ns[bestIndex];
    const QString when = qs(formatDuration(at + reportOffset(instant->report) - viewport_.wholeBegin(), 6));
    if (best->kind != LaneKind::CpuSamples)
        return QString("<b>%1</b><br>at %2").arg(qs(r.str(best->instants.name_id[bestIndex])).toHtmlEscaped(), when);
    // A CPU sample: its call stack, innermost frame first.
    const std::vector<uint32_t> frames = r.stacks.framesOf(best->instants.payload[bestIndex]);
    QString text = QString("<b>CPU sample</b> at %1<table cellspacing=0>").arg(when);
    constexpr size_t kShown = 16;
    for (size_t f = 0; f < std::min(frames.size(), kShown); ++f) {
        const QString module = qs(r.str(r.stacks.frame_module[frames[f]]));
        text += QString("<tr><td>%1</td><td style='color:gray;padding-left:8px'>%2</td></tr>")
                    .arg(qs(r.str(r.stacks.frame_function[frames[f]])).toHtmlEscaped(),
                         module.mid(module.lastIndexOf('/') + 1).toHtmlEscaped());
    }
    text += "</table>";
    if (frames.size() > kShown) text += QString("%1 more frames").arg(frames.size() - kShown);
    if (frames.empty()) text += "no call stack";
    return text;
}

}  // namespace lanescope
