#pragma once
#include <QObject>
#include <QString>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "model/Report.h"
#include "timeline/TimelineView.h"

namespace lanescope {

class CorrelationIndex;

// A time interval on the shared timeline, ns: [first, second].
using TimeInterval = std::pair<int64_t, int64_t>;

// What the viewer has open and how it is looked at, in one place: the reports (immutable,
// shared with the panels' background work), each report's offset on the shared timeline and
// its correlation index; the visible range, the selected time range, the selected event, the
// zoom history and the markers. Panels read it and follow its signals; those that move the
// view (a click on a gap, a finding, a collective, a find hit) ask it to.
//
// It drives the TimelineView attached to it through the view's public API and follows the
// view's signals (a drag, a click, a key), so the timeline library knows nothing of it
// (timeline/ does not depend on app/). Without a view (tests, the bench) it keeps the
// visible range itself.
class ViewSession : public QObject {
    Q_OBJECT
public:
    explicit ViewSession(QObject* parent = nullptr);
    ~ViewSession() override;

    // The timeline it drives (not owned; nullptr for none). Call before opening reports.
    void attach(TimelineView* timeline);
    TimelineView* timeline() const { return timeline_; }

    // ---- what is open
    const std::vector<std::shared_ptr<const Report>>& reports() const { return reports_; }
    // The report's launcher/launched index; null where none was given.
    const CorrelationIndex* correlation(int report) const;
    void addReport(std::shared_ptr<const Report> report, std::shared_ptr<const CorrelationIndex> correlation);
    // Replaces everything open at once (one reportsChanged).
    void setReports(std::vector<std::shared_ptr<const Report>> reports,
                    std::vector<std::shared_ptr<const CorrelationIndex>> correlations = {});
    void closeAll() { setReports({}); }

    // Where each report sits on the shared timeline: ns added to its own times (the ranks of one
    // job aligned, see analysis/ranks/RankAlignment.h). One per report; a new report gets 0.
    const std::vector<int64_t>& offsets() const { return offsets_; }
    int64_t offset(int report) const {
        return report >= 0 && size_t(report) < offsets_.size() ? offsets_[size_t(report)] : 0;
    }
    void setOffsets(std::vector<int64_t> offsets_ns);

    // ---- the view, on the shared timeline
    TimeInterval visibleRange() const;
    TimeInterval wholeRange() const;  // every report, offsets applied
    // Shows [begin, end]; with `remember` the view shown before goes onto the zoom history.
    void zoomTo(int64_t begin_ns, int64_t end_ns, bool remember = true);
    void fitAll();
    void fitSelection();  // the selected range, else the selected event
    bool back();          // to the view before the last remembered jump; false when none
    size_t historySize() const { return history_.size(); }

    std::optional<TimeInterval> selectedRange() const { return range_; }
    void setSelectedRange(std::optional<TimeInterval> range);
    // The lanes of the rows picked on the timeline (a click on a row name; a GPU or thread row
    // stands for the lanes below it), in row order; empty when none. Setting them highlights
    // their rows. Cleared when the reports change.
    const std::vector<ViewLane>& selectedLanes() const { return lanes_; }
    void setSelectedLanes(std::vector<ViewLane> lanes);
    std::optional<ViewEvent> selectedEvent() const { return event_; }
    // Shows a report's rows on the timeline: its group expanded (of many ranks, each starts
    // collapsed) and scrolled to the top. Nothing without a timeline.
    void revealReport(int report);
    // With `reveal` the view zooms to the event and scrolls its row into sight.
    void selectEvent(std::optional<ViewEvent> event, bool reveal = false);

    const std::vector<TimeMarker>& markers() const { return markers_; }
    void addMarker(int64_t time_ns, const QString& name = {});
    void renameMarker(int index, const QString& name);
    void removeMarker(int index);

signals:
    // Opened or closed; the selection (range and event) and the zoom history are cleared with
    // no selectionChanged or eventSelected of their own, and the view shows the whole.
    void reportsChanged();
    void offsetsChanged();
    void visibleRangeChanged();                                           // zoom, pan, fit, offsets
    void selectionChanged(std::optional<lanescope::TimeInterval> range);  // the selected time range
    void eventSelected(std::optional<lanescope::ViewEvent> event);
    void lanesSelected();  // selectedLanes() changed
    void markersChanged();

private:
    void rangeSelected(std::optional<TimeInterval> range);
    void eventChosen(std::optional<ViewEvent> event);
    void remember(TimeInterval shown);
    void viewportMoved();

    TimelineView* timeline_ = nullptr;
    std::vector<std::shared_ptr<const Report>> reports_;
    std::vector<std::shared_ptr<const CorrelationIndex>> correlations_;  // per report, may be null
    std::vector<int64_t> offsets_;                                       // per report, ns
    TimeInterval visible_{0, 0};                                         // without a timeline
    std::optional<TimeInterval> range_;
    std::optional<ViewEvent> event_;
    std::vector<ViewLane> lanes_;
    std::vector<TimeInterval> history_;
    std::vector<TimeMarker> markers_;
};

}  // namespace lanescope
