#include "app/gui/ViewSession.h"

#include <algorithm>

#include "model/Correlation.h"

namespace lanescope {
namespace {

constexpr size_t kHistoryLimit = 100;

}  // namespace

ViewSession::ViewSession(QObject* parent) : QObject(parent) {}

ViewSession::~ViewSession() = default;

void ViewSession::attach(TimelineView* timeline) {
    if (timeline_) disconnect(timeline_, nullptr, this, nullptr);
    timeline_ = timeline;
    if (!timeline_) return;
    timeline_->setReports(reports_);
    timeline_->setReportOffsets(offsets_);
    timeline_->setMarkers(markers_);
    connect(timeline_, &TimelineView::viewportChanged, this, &ViewSession::viewportMoved);
    connect(timeline_, &TimelineView::viewJumped, this, &ViewSession::remember);
    connect(timeline_, &TimelineView::backRequested, this, &ViewSession::back);
    connect(timeline_, &TimelineView::rangeSelected, this, &ViewSession::rangeSelected);
    connect(timeline_, &TimelineView::eventSelected, this, &ViewSession::eventChosen);
    connect(timeline_, &TimelineView::markerRequested, this, [this](int64_t t) { addMarker(t); });
    connect(timeline_, &TimelineView::rowsSelected, this, [this] {
        lanes_ = timeline_->selectedRowLanes();
        emit lanesSelected();
    });
}

const CorrelationIndex* ViewSession::correlation(int report) const {
    return report >= 0 && size_t(report) < correlations_.size() ? correlations_[size_t(report)].get() : nullptr;
}

void ViewSession::addReport(std::shared_ptr<const Report> report, std::shared_ptr<const CorrelationIndex> correlation) {
    auto reports = reports_;
    auto correlations = correlations_;
    reports.push_back(std::move(report));
    correlations.push_back(std::move(correlation));
    setReports(std::move(reports), std::move(correlations));
}

void ViewSession::setReports(std::vector<std::shared_ptr<const Report>> reports,
                             std::vector<std::shared_ptr<const CorrelationIndex>> correlations) {
    reports_ = std::move(reports);
    correlations_ = std::move(correlations);
    correlations_.resize(reports_.size());
    offsets_.resize(reports_.size(), 0);  // the reports open before keep their place
    range_.reset();
    event_.reset();
    lanes_.clear();
    history_.clear();
    if (reports_.empty()) {
        offsets_.clear();
        markers_.clear();
        emit markersChanged();
    }
    if (timeline_) {
        timeline_->setReports(reports_);  // fits the whole, clears its selection
        timeline_->setReportOffsets(offsets_);
        timeline_->setMarkers(markers_);
    } else {
        visible_ = wholeRange();
    }
    // The selection is cleared without its signals: reportsChanged says so, and a panel that
    // follows both would compute twice.
    emit reportsChanged();
    emit offsetsChanged();
    if (!timeline_) emit visibleRangeChanged();  // the timeline says so itself
}

void ViewSession::setOffsets(std::vector<int64_t> offsets) {
    offsets.resize(reports_.size(), 0);
    if (offsets == offsets_) return;
    offsets_ = std::move(offsets);
    if (timeline_) timeline_->setReportOffsets(offsets_);  // keeps the visible range; says it moved
    emit offsetsChanged();
    if (!timeline_) emit visibleRangeChanged();
}

void ViewSession::revealReport(int report) {
    if (timeline_) timeline_->revealReport(report);
}

TimeInterval ViewSession::visibleRange() const {
    if (!timeline_) return visible_;
    return {timeline_->viewport().visibleBegin(), timeline_->viewport().visibleEnd()};
}

TimeInterval ViewSession::wholeRange() const {
    if (timeline_) return {timeline_->viewport().wholeBegin(), timeline_->viewport().wholeEnd()};
    int64_t begin = INT64_MAX, end = INT64_MIN;
    for (size_t i = 0; i < reports_.size(); ++i) {
        begin = std::min(begin, reports_[i]->meta.begin_ns + offsets_[i]);
        end = std::max(end, reports_[i]->meta.end_ns + offsets_[i]);
    }
    return begin < end ? TimeInterval{begin, end} : TimeInterval{0, 0};
}

void ViewSession::remember(TimeInterval shown) {
    history_.push_back(shown);
    if (history_.size() > kHistoryLimit) history_.erase(history_.begin());
}

void ViewSession::viewportMoved() { emit visibleRangeChanged(); }

void ViewSession::zoomTo(int64_t begin, int64_t end, bool rememberView) {
    if (timeline_) {
        timeline_->zoomTo(begin, end, rememberView);  // its viewJumped fills the history
        return;
    }
    if (rememberView) remember(visible_);
    visible_ = {begin, end};
    emit visibleRangeChanged();
}

void ViewSession::fitAll() {
    const TimeInterval whole = wholeRange();
    zoomTo(whole.first, whole.second);
}

void ViewSession::fitSelection() {
    if (timeline_) {
        timeline_->fitSelection();
    } else if (range_) {
        zoomTo(range_->first, range_->second);
    } else if (event_) {
        const auto& events = reports_[size_t(event_->report)]->lanes[event_->lane].events;
        const int64_t s = events.start_ns[event_->event] + offset(event_->report);
        const int64_t e = events.endNs(event_->event) + offset(event_->report);
        const int64_t margin = std::max<int64_t>((e - s) / 10, 50);
        zoomTo(s - margin, e + margin);
    }
}

bool ViewSession::back() {
    if (history_.empty()) return false;
    const TimeInterval shown = history_.back();
    history_.pop_back();
    if (timeline_) {
        timeline_->zoomTo(shown.first, shown.second, false);
    } else {
        visible_ = shown;
        emit visibleRangeChanged();
    }
    return true;
}

void ViewSession::setSelectedRange(std::optional<TimeInterval> range) {
    if (timeline_)
        timeline_->setSelectedRange(range);  // comes back through rangeSelected
    else
        rangeSelected(range);
}

void ViewSession::rangeSelected(std::optional<TimeInterval> range) {
    range_ = range;
    emit selectionChanged(range_);
}

void ViewSession::setSelectedLanes(std::vector<ViewLane> lanes) {
    lanes_ = std::move(lanes);
    if (timeline_) {  // highlight the rows of those lanes
        std::vector<std::string> keys;
        for (const LayoutRow& row : timeline_->rows().rows())
            if (row.type == Row::Type::Lane && std::any_of(row.lanes.begin(), row.lanes.end(), [&](int lane) {
                    return std::find(lanes_.begin(), lanes_.end(), ViewLane{row.report, uint32_t(lane)}) !=
                           lanes_.end();
                }))
                keys.push_back(row.key);
        timeline_->setSelectedRows(std::move(keys));
    }
    emit lanesSelected();
}

void ViewSession::selectEvent(std::optional<ViewEvent> event, bool reveal) {
    if (timeline_)
        timeline_->selectEvent(event, reveal);  // comes back through eventSelected
    else
        eventChosen(event);
}

void ViewSession::eventChosen(std::optional<ViewEvent> event) {
    event_ = event;
    emit eventSelected(event_);
}

void ViewSession::addMarker(int64_t t, const QString& name) {
    markers_.push_back({t, name.isEmpty() ? QString("Marker %1").arg(markers_.size() + 1) : name});
    std::stable_sort(markers_.begin(), markers_.end(),
                     [](const auto& a, const auto& b) { return a.time_ns < b.time_ns; });
    if (timeline_) timeline_->setMarkers(markers_);
    emit markersChanged();
}

void ViewSession::renameMarker(int index, const QString& name) {
    if (index < 0 || index >= int(markers_.size())) return;
    markers_[size_t(index)].name = name;
    if (timeline_) timeline_->setMarkers(markers_);
    emit markersChanged();
}

void ViewSession::removeMarker(int index) {
    if (index < 0 || index >= int(markers_.size())) return;
    markers_.erase(markers_.begin() + index);
    if (timeline_) timeline_->setMarkers(markers_);
    emit markersChanged();
}

}  // namespace lanescope
