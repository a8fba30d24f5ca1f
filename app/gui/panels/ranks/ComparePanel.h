#pragma once
#include <QStringList>
#include <QWidget>
#include <memory>
#include <vector>

#include "analysis/ranks/RankCompare.h"
#include "analysis/ranks/StepGrid.h"
#include "app/gui/LatestTask.h"
#include "app/gui/ViewSession.h"
#include "app/gui/panels/ranks/RankSummaries.h"
#include "model/Report.h"

class QChart;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSplitter;
class QTableWidget;

namespace lanescope {

class RankHeatMap;

// The open reports as the ranks of one job: how they are aligned (NCCL collectives, wall
// clock or none, plus a nudge per rank) with the skew left, per-rank GPU time shares and
// collective waits as bar charts (Qt Charts), ranks and matched collectives as tables, and
// the straggler, and the ranks by steps as a heat map (step time or time waited in collectives
// per step, outliers marked; many ranks at a glance). Computed off the GUI thread. Clicking a
// collective zooms the timeline to it on all ranks; clicking a heat map cell shows that rank's
// step; the ranks table sorts by any column, and the heat map's rows follow its order. Above 8
// ranks the bar charts are hidden (unreadable; the table holds their figures). It sets
// the session's per-report offsets (and says so: alignmentChanged).
//
// It compares the open reports, or rank summaries (docs/rank-summary.md) once some are added:
// then those alone, whatever reports are open. Summaries hold no timeline: a rank's full report
// opens on request (a double-click on its row, or its context menu: openReportRequested) and is
// placed on the timeline where the summaries' alignment puts its rank; clicks then show that
// rank's steps and collectives there, and do nothing for ranks whose report is not open.
class ComparePanel : public QWidget {
    Q_OBJECT
public:
    explicit ComparePanel(ViewSession* session, QWidget* parent = nullptr);
    void setMode(AlignMode mode);
    AlignMode mode() const;
    void setNudge(int report, int64_t nudge_ns);
    // Compares these summaries (with those added before; a folder already there is skipped)
    // instead of the open reports.
    void addSummaries(SummarySet set);
    void closeSummaries();  // back to comparing the open reports
    bool fromSummaries() const { return summaries_ && !summaries_->inputs.empty(); }
    const SummarySet* summaries() const { return summaries_.get(); }
    // The open report (session index) that shows rank `rank` of the comparison; -1 for none.
    int timelineOf(int rank) const;
    // A summary's rank: shows its report on the timeline if open, else asks for it to be opened
    // (openReportRequested) where it is on this machine; false, and says why, when it is not.
    bool openRankReport(int rank);
    QString sourceText() const;  // what the panel compares and how to see a summary's timeline
    const RankComparison& comparison() const { return comparison_; }
    bool busy() const { return task_.busy() || again_; }
    QString stragglerText() const;
    void activateCollective(int row);  // as a click on that row does
    // The ranks × steps heat map; its ranks are the comparison's.
    const RankHeatMap* heatMap() const { return heatMap_; }
    // Shows the step of the heat map's `column` of rank (report) `rank` on the timeline, as a
    // click on that cell does: the range zoomed to, selected, the rank's rows shown.
    void showStep(int rank, int column);
    // Sorts the ranks (table and heat map) by a column of the ranks table, as a click on its header does.
    void sortRanks(int column, Qt::SortOrder order);
    void setHeatMeasure(bool waits);          // the heat map's colour: false = step time, true = waits
    static const QStringList& rankColumns();  // the ranks table's headers, by column

signals:
    void alignmentChanged(std::vector<int64_t> offsets_ns);
    void openReportRequested(const QString& path);
    void updated();

private:
    // What the background work hands back.
    struct Compared {
        RankComparison comparison;
        StepGrid grid;
    };
    void setReports(std::vector<std::shared_ptr<const Report>> reports);
    size_t inputCount() const { return fromSummaries() ? summaries_->size() : reports_.size(); }
    void setRankLabels();  // the nudge's rank list, one per input
    void mapTimelines();   // timelines_ from the open reports' paths
    void applyOffsets();   // the comparison's offsets onto the session's reports
    void showSource();     // source_'s text; the heat map's ranks with a timeline
    void showRankMenu(QPoint pos);
    void recompute();
    void showComparison(Compared compared);
    void fill();
    void fillRanks();
    void fillCharts();
    void followRankOrder();  // the heat map's rows as the ranks table's
    void describeOutliers();

    ViewSession* session_;
    std::vector<std::shared_ptr<const Report>> reports_;
    std::shared_ptr<const SummarySet> summaries_;  // compared instead of reports_ when it holds any
    std::vector<int> timelines_;                   // per summary: the open report showing it, -1 for none
    std::vector<int64_t> nudges_;  // per input (report or summary), ns, added to the alignment's offsets
    RankComparison comparison_;
    QComboBox* mode_;
    QComboBox* nudgeRank_;
    QDoubleSpinBox* nudge_;
    QLabel* skew_;
    QLabel* source_;  // summaries: how many, and how to see a rank's timeline
    QLabel* straggler_;
    QTableWidget* ranks_;
    QTableWidget* collectives_;
    QSplitter* right_;         // the heat map above the charts
    QSplitter* charts_;        // the two bar charts
    size_t chartedRanks_ = 0;  // ranks when the charts were last sized (0: hidden)
    QChart* shares_;
    QChart* waits_;
    RankHeatMap* heatMap_;
    QComboBox* heatMeasure_;
    QComboBox* heatOrder_;
    QLabel* heatNote_;
    LatestTask<Compared> task_{this};
    bool running_ = false;  // a comparison of ours is under way
    bool again_ = false;    // the inputs changed meanwhile: compare again when it ends
};

}  // namespace lanescope
