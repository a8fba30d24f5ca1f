#pragma once
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
class QLabel;
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
// of the whole report, for the report of the selected event (else the first open report):
// its time by category as a bar, the names it spends most time in, and its segments. Computed
// off the GUI thread (LatestTask), again when the selection or the reports change, while the
// panel is shown (WhenShown). A click or Enter on a segment zooms the timeline to it and
// selects its event; N and Shift+N step to the next and previous segment.
class CriticalPathPanel : public QWidget {
    Q_OBJECT
public:
    explicit CriticalPathPanel(ViewSession* session, QWidget* parent = nullptr);
    // Computes now when shown, else once the panel is next shown (View > Critical path).
    void recompute() { whenShown_.request(); }
    bool busy() const { return task_.busy(); }
    const std::optional<CriticalPath>& path() const { return path_; }
    int report() const { return report_; }  // the open report the path is of
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

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    struct Outcome {
        std::optional<CriticalPath> path;
        std::string error;
    };
    void computeNow();
    void showOutcome(Outcome outcome);
    void updateOverlay();  // sets or clears the timeline's path overlay

    ViewSession* session_;
    std::shared_ptr<const Report> shown_;  // the report of path_
    int report_ = 0;
    std::optional<CriticalPath> path_;
    QLabel* summary_;
    QCheckBox* showOnTimeline_;
    PathCategoryBar* bar_;
    QTableWidget* names_;
    PathSegmentModel* segments_;
    QTableView* segmentsView_;
    LatestTask<Outcome> task_{this};
    WhenShown whenShown_{this, [this] { computeNow(); }};
};

}  // namespace lanescope
