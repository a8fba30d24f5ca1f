#pragma once
#include <QWidget>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "analysis/CpuProfile.h"
#include "app/gui/LatestTask.h"
#include "app/gui/ViewSession.h"
#include "app/gui/WhenShown.h"
#include "app/gui/panels/calltree/CallTreeModel.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QScrollArea;
class QStackedWidget;
class QTabBar;
class QTimer;

namespace lanescope {

class CallTreeView;
class FlameGraph;

// The Call tree panel: the CPU samples of the selected time range (none: the whole report) and
// of the picked threads or process (all by default) as a top-down tree, a bottom-up tree, a flat
// list and a flame graph (docs/analyses.md, "CPU profile"), with a function search. Computed
// off the GUI thread whenever the selection, the thread choice or the reports change.
// Double-clicking a function marks its samples (those whose stack holds it) on the timeline;
// Esc, or double-clicking it again, clears them.
class CallTreePanel : public QWidget {
    Q_OBJECT
public:
    enum View { TopDown, BottomUp, Flat, Flame, ViewCount };
    explicit CallTreePanel(ViewSession* session, QWidget* parent = nullptr);

    void setView(View view);
    View view() const;
    CallTreeModel* model(View view) const;    // nullptr for Flame
    CallTreeView* treeView(View view) const;  // nullptr for Flame
    FlameGraph* flameGraph() const { return flame_; }
    // Entry 0: all threads; then per process its threads (entry data: the thread choice).
    QComboBox* threadPicker() const { return threads_; }
    QLineEdit* searchBox() const { return search_; }
    void setSearch(const QString& text);  // at once, without the typing delay
    bool busy() const { return task_.busy() || markTask_.busy(); }

    // Marks the samples with `frame` on the timeline; the frame marked already: clears them.
    void toggleSamplesOf(uint32_t frame);
    void clearMarkedSamples();
    std::optional<uint32_t> markedFrame() const { return marked_; }

signals:
    void updated();       // new trees shown
    void marksChanged();  // samples marked on the timeline, or cleared

private:
    // What the background computation gives: the three views of one selection.
    struct Result {
        CallTree topDown, bottomUp, flat;
        uint64_t samples = 0, withoutStack = 0;
    };
    // One entry of the thread picker: the OS ids it selects (empty: any).
    struct ThreadChoice {
        std::vector<int64_t> tids, pids;
    };
    void setReports();
    void fillThreadPicker();
    SampleSelection selection() const;
    int reportIndex() const;
    // Computes now when the panel is shown, else once it is next shown (WhenShown).
    void recompute() { whenShown_.request(); }
    void computeNow();
    void display(Result result);
    void applySearch();
    void showMarkStatus(uint64_t count);

    ViewSession* session_;
    std::vector<std::shared_ptr<const Report>> reports_;
    std::optional<TimeInterval> range_;  // on the shared timeline
    std::vector<ThreadChoice> choices_;  // parallel to threads_'s entries
    QTabBar* tabs_;
    QComboBox* threads_;
    QComboBox* reportChoice_;
    QLineEdit* search_;
    QTimer* searchDelay_;
    QLabel* scope_;
    QLabel* status_;
    QStackedWidget* pages_;
    CallTreeModel* models_[Flame] = {};
    CallTreeView* trees_[Flame] = {};
    FlameGraph* flame_;
    QScrollArea* flameScroll_;
    std::optional<uint32_t> marked_;  // the frame whose samples are marked
    LatestTask<Result> task_{this};
    WhenShown whenShown_{this, [this] { computeNow(); }};
    LatestTask<std::vector<LaneSamples>> markTask_{this};
};

}  // namespace lanescope
