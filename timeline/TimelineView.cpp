#include "timeline/TimelineView.h"

#include <sys/resource.h>

#include <QEvent>
#include <QScrollBar>
#include <QThreadPool>
#include <QTimer>
#include <algorithm>
#include <cmath>

#include "timeline/HitTest.h"
#include "timeline/ReportSummaries.h"
#include "timeline/TextCache.h"
#include "timeline/TimeFormat.h"

namespace lanescope {
namespace {

constexpr int kScrollSteps = 4096;  // horizontal scrollbar resolution: about a step per pixel

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

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent), textCache_(std::make_unique<TextCache>()), deferredPool_(std::make_unique<QThreadPool>()) {
    deferredPool_->setMaxThreadCount(1);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(400, 200);
    vertical_ = new QScrollBar(Qt::Vertical, this);
    horizontal_ = new QScrollBar(Qt::Horizontal, this);
    vertical_->setToolTip("Scroll rows");
    horizontal_->setToolTip("Pan in time");
    connect(vertical_, &QScrollBar::valueChanged, this, [this] {
        if (!updatingScrollBars_ && !restoringScroll_) captureScrollAnchor();
        update();
    });
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

// A build in flight reads a report it holds and then posts to this view: done before the view
// goes. Builds asked for and never started are not waited for by a saving model.
TimelineView::~TimelineView() {
    deferredPool_->waitForDone();
    settleShownReports();
}

void TimelineView::setReports(std::vector<std::shared_ptr<const Report>> reports) {
    colors_.clear();
    samplePeriods_.clear();
    for (const auto& r : reports) colors_.push_back(std::make_unique<EventColors>(*r));
    offsets_.resize(reports.size(), 0);
    reports_ = std::move(reports);
    std::erase_if(deferredRequested_, [&](const auto& asked) {
        return std::none_of(reports_.begin(), reports_.end(), [&](const auto& r) { return r.get() == asked.first; });
    });
    if (reports_.empty() && placeholders_.empty()) anchor_.reset();
    relayout();
    updateWhole();
    selected_.reset();
    selectedInstant_.reset();
    hovered_.reset();
    linked_.clear();
    path_ = {};
    marked_.clear();
    range_.reset();
    selectedRows_.clear();
    rowsChanged();
    viewportMoved();
}

void TimelineView::setPlaceholders(std::vector<std::shared_ptr<const Report>> placeholders) {
    placeholders_ = std::move(placeholders);
    const TimeViewport before = viewport_;
    relayout();
    updateWhole();
    if (viewport_.wholeBegin() == before.wholeBegin() && viewport_.wholeEnd() == before.wholeEnd())
        viewport_.setVisible(before.visibleBegin(), before.visibleEnd());
    rowsChanged();
    // Only a new whole span moves the view (and the panels following it).
    if (viewport_.visibleBegin() != before.visibleBegin() || viewport_.visibleEnd() != before.visibleEnd())
        viewportMoved();
}

void TimelineView::relayout() {
    std::vector<std::shared_ptr<const Report>> all = reports_;
    all.insert(all.end(), placeholders_.begin(), placeholders_.end());
    layout_.setReports(std::move(all), layout_.order(), placeholders_.size());
}

void TimelineView::updateWhole() {
    int64_t begin = INT64_MAX, end = INT64_MIN;
    for (size_t i = 0; i < layout_.reports().size(); ++i) {
        const Metadata& meta = layout_.reports()[i]->meta;
        if (i >= reports_.size() && meta.begin_ns >= meta.end_ns) continue;  // a placeholder recording no span
        begin = std::min(begin, meta.begin_ns + reportOffset(int(i)));
        end = std::max(end, meta.end_ns + reportOffset(int(i)));
    }
    spanKnown_ = begin < end || placeholders_.empty();
    if (begin < end)
        viewport_.setWhole(begin, end);
    else if (!placeholders_.empty())
        viewport_.setWhole(0, kGuessedSpanNs);
}

void TimelineView::setReportOffsets(std::vector<int64_t> offsets) {
    offsets.resize(reports_.size(), 0);
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
        for (const int index : row.lanes) {  // a stream's row: its kernel and memory lanes
            const ViewLane lane{row.report, uint32_t(index)};
            if (std::find(lanes.begin(), lanes.end(), lane) == lanes.end()) lanes.push_back(lane);
        }
    };
    const std::vector<LayoutRow>& rows = layout_.rows();
    for (size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].loading) continue;  // a placeholder's: no events to list
        if (std::find(selectedRows_.begin(), selectedRows_.end(), rows[i].key) == selectedRows_.end()) continue;
        add(rows[i]);
        for (int lane : rows[i].lanes)  // a collapsed group draws its descendants' lanes
            if (std::find(lanes.begin(), lanes.end(), ViewLane{rows[i].report, uint32_t(lane)}) == lanes.end())
                lanes.push_back({rows[i].report, uint32_t(lane)});
        for (size_t j = i + 1; j < rows.size() && rows[j].level > rows[i].level; ++j) add(rows[j]);
    }
    return lanes;
}

void TimelineView::setKernelColours(std::vector<KernelColours> byReport) {
    byReport.resize(colors_.size());
    for (size_t r = 0; r < colors_.size(); ++r) colors_[r]->setKernelColours(std::move(byReport[r]));
    dropGeometry();
    update();
}

void TimelineView::dropGeometry() {
    builtWindow_ = {};  // rebuilt, with the row paints, on the next frame
    markerCache_.clear();
    markersMapping_ = {};
}

void TimelineView::rowsChanged() {
    dropGeometry();
    updateScrollBars();
    restoreScrollAnchor();
    update();
}

void TimelineView::captureScrollAnchor() {
    const LayoutRow* row = layout_.rowAt(scrollY());
    if (row) anchor_ = ScrollAnchor{row->key, scrollY() - row->y};
}

void TimelineView::restoreScrollAnchor() {
    if (!anchor_) return;
    for (const LayoutRow& row : layout_.rows())
        if (row.key == anchor_->key) {
            restoringScroll_ = true;
            vertical_->setValue(row.y + anchor_->offset);
            restoringScroll_ = false;
            return;
        }
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
        const LaneSummary* summary = nullptr;
        if (!isDeferredLane(r, size_t(lane)))
            summary = &ReportSummaries::of(r).lane(size_t(lane));
        else if (DeferredLanes::of(r).ready(size_t(lane)))
            summary = &DeferredLanes::of(r).summary(size_t(lane));
        else
            return it->second;  // not built yet: drawn empty, built again once it is
        buildLaneBoxes(shownLane(report, lane), window, sink, {}, maxDepths, summary);
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
    EventColors& colors = *colors_[row.report];
    const bool summary = row.type != Row::Type::Lane;
    std::vector<std::pair<QRgb, std::vector<TimeBox>>>& fills = it->second.fills;
    ColourSlots groupOf;
    QRgb lastSource = 0, lastMerged = 0;  // boxes in a row often share a colour: skip the lookup
    const double separatorNs = kSeparatorMinPx * builtWindow_.ns_per_px;  // boxes wider get a 1 px gap
    for (int laneIndex : row.lanes) {
        const Lane& lane = shownLane(row.report, laneIndex);
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
            if (colors.hasKernelColours()) color = colors.kernelColour(lane, b.event(lane), color);
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

void TimelineView::setPathOverlay(PathOverlay overlay) {
    path_ = std::move(overlay);
    update();
}

void TimelineView::clearPathOverlay() {
    if (path_.empty()) return;
    path_ = {};
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

// ---- deferred lanes ----

const Lane& TimelineView::shownLane(int report, int lane) const {
    return lanescope::shownLane(*layout_.reports()[size_t(report)], size_t(lane));
}

ViewEvent TimelineView::selectable(const ViewEvent& event) const {
    const Report& r = *layout_.reports()[size_t(event.report)];
    // A built deferred lane's event, or one of a projected lane the report holds itself (its saved
    // model's).
    std::optional<EventRef> source = builtLaneSource(r, event.lane, event.event);
    if (!source && projectedSources_) source = projectedSources_(r, event.lane, event.event);
    return source ? ViewEvent{event.report, source->lane, source->index} : event;
}

void TimelineView::settleShownReports() const {
    for (const auto& report : layout_.reports()) DeferredLanes::of(*report).settle();
}

void TimelineView::requestDeferredLane(int report, int lane) {
    const std::shared_ptr<const Report> shown = layout_.reports()[size_t(report)];
    if (!deferredBuilder_ || DeferredLanes::of(*shown).ready(size_t(lane)) ||
        !deferredRequested_.emplace(shown.get(), lane).second)
        return;
    ++deferredPending_;
    // Started once the frame asking for it is painted, not beside the rasterizer's own threads
    // in that frame.
    QTimer::singleShot(0, this, [this, shown, lane] { startDeferredBuild(shown, lane); });
}

void TimelineView::startDeferredBuild(const std::shared_ptr<const Report>& shown, int lane) {
    deferredPool_->start([this, shown, lane, builder = deferredBuilder_] {
        ::setpriority(PRIO_PROCESS, 0, 10);  // this thread only (Linux): drawing comes first
        DeferredLanes::of(*shown).build(size_t(lane), builder);
        // Queued to the GUI thread; the destructor waits for this task, so `this` is alive here.
        QMetaObject::invokeMethod(
            this, [this, shown] { deferredLaneBuilt(shown); }, Qt::QueuedConnection);
    });
}

void TimelineView::deferredLaneBuilt(const std::shared_ptr<const Report>& shown) {
    --deferredPending_;
    if (std::none_of(layout_.reports().begin(), layout_.reports().end(), [&](const auto& r) { return r == shown; }))
        return;
    layout_.refresh();  // the rows' heights: their events' depths
    rowsChanged();      // and their geometry, built again
    emit deferredLanesBuilt();
}

}  // namespace lanescope
