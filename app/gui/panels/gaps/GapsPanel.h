#pragma once
#include <QWidget>
#include <memory>
#include <vector>

#include "app/gui/LatestTask.h"
#include "app/gui/ViewSession.h"
#include "app/gui/WhenShown.h"
#include "app/gui/panels/gaps/GapTableModel.h"
#include "model/Report.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QTableView;

namespace lanescope {

// GPU idle gaps ("bubbles") of every open report with their likely cause, for a threshold
// chosen from presets (Nsight's 500 ms, bubbles of 1 ms, HTA's 30 ns kernel-to-kernel wait)
// or typed in. Computed off the GUI thread. Clicking a gap zooms the timeline to it, selects
// it as the time range and selects what the CPU was doing (the blamed call or NVTX range).
// Follows the session's reports.
class GapsPanel : public QWidget {
    Q_OBJECT
public:
    explicit GapsPanel(ViewSession* session, QWidget* parent = nullptr);
    void setThresholdMs(double ms);
    size_t gapCount() const { return model_->gaps().size(); }
    bool busy() const { return task_.busy(); }
    void activateGap(int row);  // as a click on that row does

private:
    // Computes now when the panel is shown, else once it is next shown (WhenShown).
    void recompute() { whenShown_.request(); }
    void computeNow();
    void showSummary();

    ViewSession* session_;
    std::vector<std::shared_ptr<const Report>> reports_;  // those the gaps were found in
    QComboBox* presets_;
    QDoubleSpinBox* threshold_;
    QLabel* summary_;
    GapTableModel* model_;  // the gaps found last, longest first, with their reports
    QTableView* table_;
    LatestTask<std::vector<FoundGap>> task_{this};
    WhenShown whenShown_{this, [this] { computeNow(); }};
};

}  // namespace lanescope
