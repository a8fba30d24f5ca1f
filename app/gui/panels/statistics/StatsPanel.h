#pragma once
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "analysis/StatsOptions.h"
#include "analysis/StatsTable.h"
#include "app/gui/LatestTask.h"
#include "app/gui/ViewSession.h"
#include "app/gui/WhenShown.h"
#include "app/gui/panels/tables/StatsTableView.h"
#include "model/Report.h"
#include "model/TimeRange.h"

class QComboBox;
class QLabel;
class QStackedWidget;

namespace lanescope {

// nsys-style statistics (every report of analysis/Registry.h, picked by title in a combo box) of
// the whole report or the session's selected time range, computed off the GUI thread whenever
// the selection (or the reports, or their offsets) change; a trace's first rows only, Export CSV
// writing all of it. Tables sort and filter; rows copy and export as CSV; a row's
// context menu shows its instances on the timeline.
class StatsPanel : public QWidget {
    Q_OBJECT
public:
    explicit StatsPanel(ViewSession* session, QWidget* parent = nullptr);
    // The table of a report, as computed last (for tests and export): of a trace, its first
    // StatsTableView::kShownRows rows, the others counted in rows_left_out.
    const StatsTable* table(const QString& reportName) const;
    // The nsys name of the report picked in the report picker, e.g. "cuda_gpu_kern_sum".
    QString currentReportName() const;
    bool busy() const { return task_.busy() || filling_; }
    // The shown table holds the current report and range (the other summaries may still be
    // computing after it).
    bool shownTableReady() const { return !shownPending_ && !filling_; }
    // The options the panel computes with: a trace's first StatsTableView::kShownRows rows only.
    static StatsOptions shownRowsOnly();

signals:
    // "Show instances": the events of report `report` whose name matches `pattern` (a regex).
    void showInstances(int report, const QString& pattern);
    void updated();

private:
    struct Tab {
        QString reportName;
        StatsTableView* page;
        StatsTable table;       // computed and not shown yet (shown tables are held by the page)
        bool filled = false;    // table shown in page (else filled when picked)
        bool computed = false;  // table is for the current report and range (else computed when picked)
    };
    void setReports(std::vector<std::shared_ptr<const Report>> reports);
    // A range on the shared timeline; each report's offset on it (ViewSession::offsets).
    void setRange(std::optional<std::pair<int64_t, int64_t>> range);
    void setOffsets(std::vector<int64_t> offsets_ns);
    TimeRange rangeOf(int report) const;
    // Computes now when the panel is shown, else once it is next shown (WhenShown).
    void recompute() {
        shownPending_ = true;
        whenShown_.request();
    }
    void computeNow();
    void computePicked();
    void fillAll(std::vector<std::optional<StatsTable>> tables, bool all);
    void fill(Tab& tab, StatsTable table);
    Tab* currentTab();
    // Shows the scope of the tables and, for a trace cut at its first rows, how many it has.
    void showScope();

    std::vector<std::shared_ptr<const Report>> reports_;
    std::optional<std::pair<int64_t, int64_t>> range_;
    std::vector<int64_t> offsets_;  // per report, ns
    QComboBox* reportChoice_;
    QLabel* scope_;
    QString scopeText_;      // what the tables cover: the whole report or the selection
    QComboBox* kind_;        // the report picker: one entry per registry report, by title
    QStackedWidget* pages_;  // one page (filter and table) per report, in registry order
    std::vector<Tab> tabList_;
    LatestTask<std::vector<std::optional<StatsTable>>> task_{this};
    WhenShown whenShown_{this, [this] { computeNow(); }};
    bool filling_ = false;            // tables of the last result still being filled
    bool pickFirstWithRows_ = false;  // on the next result, pick the first report with rows
    bool shownPending_ = false;       // the shown table waits for a computation asked for
};

}  // namespace lanescope
