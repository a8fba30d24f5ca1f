#pragma once
#include <QWidget>
#include <memory>
#include <vector>

#include "analysis/ranks/RunDiff.h"
#include "app/gui/LatestTask.h"
#include "app/gui/ViewSession.h"
#include "app/gui/WhenShown.h"
#include "model/Report.h"

class QComboBox;
class QLabel;
class QTableWidget;

namespace lanescope {

// Run-to-run diff of two open reports (baseline, candidate): every kernel, CUDA API and NVTX
// name with count, total and mean before and after, the change and the ratio, added and
// removed names first by size of change (analysis/ranks/RunDiff.h, the same as `lanescope-cli diff`).
// Computed off the GUI thread. Double-clicking a row finds that name's longest instance in
// the candidate (or the baseline when removed).
class DiffPanel : public QWidget {
    Q_OBJECT
public:
    explicit DiffPanel(ViewSession* session, QWidget* parent = nullptr);
    void setPair(int baseline, int candidate);
    const std::vector<DiffRow>& rows() const { return rows_; }
    bool busy() const { return task_.busy(); }

signals:
    void showInstances(int report, const QString& pattern);
    void updated();

private:
    void setReports(std::vector<std::shared_ptr<const Report>> reports);
    // Computes now when the panel is shown, else once it is next shown (WhenShown).
    void recompute() { whenShown_.request(); }
    void computeNow();
    void showRows(std::vector<DiffRow> rows);
    void fill();

    std::vector<std::shared_ptr<const Report>> reports_;
    std::vector<DiffRow> rows_;
    QComboBox* baseline_;
    QComboBox* candidate_;
    QLabel* summary_;
    QTableWidget* table_;
    LatestTask<std::vector<DiffRow>> task_{this};
    WhenShown whenShown_{this, [this] { computeNow(); }};
};

}  // namespace lanescope
