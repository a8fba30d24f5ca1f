#pragma once
#include <QString>
#include <QWidget>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/critical_path/CriticalPath.h"
#include "app/gui/LatestTask.h"
#include "app/gui/ViewSession.h"
#include "app/gui/WhenShown.h"
#include "model/Report.h"

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTableView;
class QTableWidget;

namespace lanescope {

class PathSegmentModel;

// The time on a critical path by category as one horizontal stacked bar, a colour per
// category, with a legend (ms and share of the path) below it.
class PathCategoryBar : public QWidget {
public:
    explicit PathCategoryBar(QWidget* parent = nullptr);
    void setTotals(const std::array<int64_t, kPathCategoryCount>& totals, int64_t length_ns);
    const std::array<int64_t, kPathCategoryCount>& totals() const { return totals_; }
    int64_t length() const { return length_; }
    static QColor colour(PathCategory category);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct LegendItem {
        QRect rect;  // swatch and text
        PathCategory category;
        QString text;
    };
    std::vector<LegendItem> layoutLegend(int width) const;
    void fitHeight();

    std::array<int64_t, kPathCategoryCount> totals_{};
    int64_t length_ = 0;
};

// The critical path (docs/analyses.md, "Critical path") of the timeline's selected range, else
// of the whole report: of the report of the selected event (else the first open report), or of
// every open report as the ranks of one job ("All open ranks", on by default when each open
// report has NCCL or MPI rows). Its time by category as a bar, the names it spends most time
// in, and its segments. Computed off the GUI thread (LatestTask), again when the selection or
// the reports change, while the panel is shown (WhenShown). A click or Enter on a segment zooms
// the timeline to it and selects its event; N and Shift+N step to the next and previous segment.
// What if: the names picked in the names table made a factor faster (CriticalPathOptions::
// what_if), the new path's length and what it goes through then.
class CriticalPathPanel : public QWidget {
    Q_OBJECT
public:
    explicit CriticalPathPanel(ViewSession* session, QWidget* parent = nullptr);
    // Computes now when shown, else once the panel is next shown (View > Critical path).
    void recompute() { whenShown_.request(); }
    bool busy() const { return task_.busy() || whatIfTask_.busy(); }
    const std::optional<CriticalPath>& path() const { return path_; }
    // The open reports the path is of, by their index among the open reports; the path's report
    // k (PathSegments::report) is open report pathReports()[k].
    const std::vector<int>& pathReports() const { return shownIndexes_; }
    QTableView* segmentsView() const { return segmentsView_; }
    QTableWidget* namesView() const { return names_; }
    PathCategoryBar* bar() const { return bar_; }
    QLabel* summary() const { return summary_; }
    void activateSegment(int row);  // as a click on that row does
    void step(int delta);           // N (+1), Shift+N (-1)
    // "Show on timeline" (on by default): while checked and the panel shown with a path, the
    // timeline draws it (TimelineView::setPathOverlay); cleared when the path is, the reports
    // change or the panel is hidden.
    QCheckBox* showOnTimeline() const { return showOnTimeline_; }
    // "All open ranks": shown while several reports are open.
    QCheckBox* acrossRanks() const { return acrossRanks_; }
    // What if: the factor, the button that asks (as whatIf() does), its answer in words and the
    // new path's time by category; the answer's path (what_if_length_ns set) once computed.
    QDoubleSpinBox* whatIfFactor() const { return whatIfFactor_; }
    QLabel* whatIfAnswer() const { return whatIfAnswer_; }
    PathCategoryBar* whatIfBar() const { return whatIfBar_; }
    const std::optional<CriticalPath>& whatIfPath() const { return whatIfPath_; }
    void whatIf();  // the names selected in the names table, whatIfFactor() times faster

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    struct Outcome {
        std::optional<CriticalPath> path;
        std::string error;
    };
    // What a computation is of: the reports (open report indexes alongside) and the options.
    struct Request {
        std::vector<std::shared_ptr<const Report>> reports;
        std::vector<int> indexes;
        CriticalPathOptions options;
        QString what;  // the step's or NVTX range's name, else empty
    };
    std::optional<Request> request() const;  // nullopt when no report is open
    bool stillOpen() const;                  // the path's reports are open as they were
    void computeNow();
    void showOutcome(Outcome outcome);
    void showWhatIf(Outcome outcome);
    void clearWhatIf(const QString& text);
    void updateOverlay();  // sets or clears the timeline's path overlay
    void reportsChanged();

    ViewSession* session_;
    std::vector<std::shared_ptr<const Report>> shown_;  // the reports of path_, in its order
    std::vector<int> shownIndexes_;                     // their indexes among the open reports
    QString shownWhat_;                                 // Request::what of path_
    std::optional<CriticalPath> path_;
    std::optional<CriticalPath> whatIfPath_;
    QLabel* summary_;
    QCheckBox* acrossRanks_;
    QCheckBox* showOnTimeline_;
    PathCategoryBar* bar_;
    QTableWidget* names_;
    QDoubleSpinBox* whatIfFactor_;
    QPushButton* whatIfButton_;
    QLabel* whatIfAnswer_;
    PathCategoryBar* whatIfBar_;
    PathSegmentModel* segments_;
    QTableView* segmentsView_;
    LatestTask<Outcome> task_{this};
    LatestTask<Outcome> whatIfTask_{this};
    WhenShown whenShown_{this, [this] { computeNow(); }};
};

}  // namespace lanescope
