#pragma once
#include <QString>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "analysis/communication/CollectiveInstances.h"
#include "app/gui/LatestTask.h"
#include "app/gui/ViewSession.h"
#include "app/gui/WhenShown.h"
#include "app/gui/panels/communication/BusbwScatter.h"
#include "model/Report.h"

class QLabel;
class QTabWidget;
class QTableView;
class QTableWidget;

namespace lanescope {

class CollectiveTableModel;

// The NCCL collectives of every open report (docs/analyses.md, "Communication"): one report, or
// the ranks of one job in their open order. A line of totals and the notes (a report without
// collective sizes says why); the summary per operation and size bucket; busbw against size as a
// scatter (BusbwScatter); per rank its communication time, its overlap with compute and, with
// several ranks, its waits and how often it came last; and every collective in a table. Computed
// off the GUI thread (LatestTask), again when the reports change, while the panel is shown
// (WhenShown). A click on a collective (its row, or its point) selects its kernel on the timeline;
// a click on a summary row selects that row's longest collective; a kernel selected on the
// timeline is picked in the table.
class CommunicationPanel : public QWidget {
    Q_OBJECT
public:
    explicit CommunicationPanel(ViewSession* session, QWidget* parent = nullptr);
    // Computes now when shown, else once the panel is next shown (View > Communication).
    void recompute() { whenShown_.request(); }
    bool busy() const { return task_.busy(); }
    // The analysis shown, of the open reports in their order; null before one is computed.
    const std::shared_ptr<const CommunicationAnalysis>& analysis() const { return analysis_; }
    // The analysis when it is of the reports open now (not one on its way), else null.
    const CommunicationAnalysis* currentAnalysis() const;
    QLabel* summary() const { return summary_; }
    QLabel* notes() const { return notes_; }
    QTableWidget* summaryTable() const { return summaryTable_; }
    QTableWidget* ranksTable() const { return ranksTable_; }
    QTableView* collectivesView() const { return collectivesView_; }
    CollectiveTableModel* collectivesModel() const { return collectives_; }
    BusbwScatter* scatter() const { return scatter_; }
    QTabWidget* tabs() const { return tabs_; }
    // Selects collective `row` (of CollectiveRows) on the timeline and in the table.
    void activateRow(uint32_t row);

private:
    // What a computation gives: the analysis and what is drawn from it.
    struct Outcome {
        std::shared_ptr<const CommunicationAnalysis> analysis;
        std::vector<CollectiveSummaryRow> summary;
        ScatterPoints points;
    };
    void computeNow();
    void showOutcome(Outcome outcome);
    void showSummaryLine();
    void fillSummaryTable(const std::vector<CollectiveSummaryRow>& rows);
    void fillRanksTable();
    void activateSummaryRow(int row);
    void followSelection(std::optional<ViewEvent> event);  // a kernel picked on the timeline
    bool stillOpen() const;                                // the analysis's reports are open as they were

    ViewSession* session_;
    std::vector<std::shared_ptr<const Report>> shown_;  // the reports of analysis_, in its rank order
    std::shared_ptr<const CommunicationAnalysis> analysis_;
    std::vector<CollectiveSummaryRow> summaryRows_;  // as summarizeCollectives sorts them
    QLabel* summary_;
    QLabel* notes_;
    QTabWidget* tabs_;
    QWidget* left_;  // the summary and per-rank tables, beside the scatter
    QTableWidget* summaryTable_;
    QLabel* ranksTitle_;
    QTableWidget* ranksTable_;
    BusbwScatter* scatter_;
    CollectiveTableModel* collectives_;
    QTableView* collectivesView_;
    LatestTask<Outcome> task_{this};
    WhenShown whenShown_{this, [this] { computeNow(); }};
};

}  // namespace lanescope
