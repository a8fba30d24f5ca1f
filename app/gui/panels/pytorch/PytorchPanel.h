#pragma once
#include <QWidget>
#include <memory>
#include <vector>

#include "analysis/pytorch/PytorchViews.h"
#include "app/gui/LatestTask.h"
#include "app/gui/ViewSession.h"
#include "app/gui/WhenShown.h"
#include "app/gui/panels/pytorch/MemoryChart.h"
#include "model/Report.h"

class QComboBox;
class QLabel;
class QTabWidget;

namespace lanescope {

class StatsTableView;
class StepChart;

// The views PyTorch users knew from TensorBoard's profiler plugin (analysis/pytorch/PytorchViews.h:
// operators, kernels, ...), one tab each, for the picked report. The shown tab's view is computed off
// the GUI thread when the panel is shown, the others when picked. A tab says in a line above its
// table what the trace lacks for it. Clicking a row shows it on the timeline: an operator's or a
// kernel's longest instance (the find bar then steps through the others), a step's span.
class PytorchPanel : public QWidget {
    Q_OBJECT
public:
    explicit PytorchPanel(ViewSession* session, QWidget* parent = nullptr);
    // Shows the tab of view `name` ("operators", ...), or of the view it groups ("operators-by-stack").
    void showView(const QString& name);
    // The table of view `name` as shown (empty until computed, or while another grouping is
    // picked), and its line on what is missing.
    const StatsTable& table(const QString& name) const;
    QString missingText(const QString& name) const;
    StatsTableView* tableView(const QString& name) const;
    QString summaryText(const QString& name) const;
    StepChart* stepChart() const;
    MemoryChart* memoryChart() const;
    // The shown tab is computed for the picked report, and nothing is computing.
    bool ready() const;
    bool busy() const { return task_.busy(); }

signals:
    // Show the events of report `report` whose name matches `pattern` (a regex), longest first.
    void showInstances(int report, const QString& pattern);

private:
    // One tab: a view's line on what is missing, its other tables as lines of text, a chart
    // for the overview and memory views, and its main table.
    struct Tab {
        const PytorchViewEntry* view;  // the grouping picked in groupBy, else the tab's view
        QLabel* missing;
        QLabel* summary;
        StatsTableView* table;
        StepChart* steps = nullptr;
        MemoryChart* memory = nullptr;
        QComboBox* groupBy = nullptr;  // the view's groupings (operators by name, by call stack), if any
        bool computed = false;         // for the picked report
    };
    struct Computed {
        size_t tab;
        PytorchViewResult result;
        MemoryCurves memory;  // for the tab with a memory chart
    };
    void setReports(std::vector<std::shared_ptr<const Report>> reports);
    // Computes the shown tab now when the panel is shown, else once it is next shown.
    void recompute() { whenShown_.request(); }
    void computeShown();
    void display(Computed computed);
    const Tab* tabOf(const QString& name) const;
    // Where the picked report's timeline starts on the session's shared one (ns).
    int64_t pickedOffset() const;
    // Shows what a row points at: its events' longest instance, or its span (selected, and zoomed to).
    void showOnTimeline(const PytorchRowTarget& target);

    ViewSession* session_;
    std::vector<std::shared_ptr<const Report>> reports_;
    QComboBox* report_;
    QLabel* status_;
    QTabWidget* tabs_;
    std::vector<Tab> tabList_;  // in pytorchViews() order, as the tabs
    LatestTask<Computed> task_{this};
    WhenShown whenShown_{this, [this] { computeShown(); }};
};

}  // namespace lanescope
