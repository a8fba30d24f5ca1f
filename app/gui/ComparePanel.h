#pragma once
#include <QWidget>
#include <memory>
#include <vector>

#include "analysis/ranks/RankCompare.h"
#include "app/gui/LatestTask.h"
#include "app/gui/ViewSession.h"
#include "model/Report.h"

class QChart;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QTableWidget;

namespace lanescope {

// The open reports as the ranks of one job: how they are aligned (NCCL collectives, wall
// clock or none, plus a nudge per rank) with the skew left, per-rank GPU time shares and
// collective waits as bar charts (Qt Charts), ranks and matched collectives as tables, and
// the straggler. Computed off the GUI thread. Clicking a collective zooms the timeline to it
// on all ranks. It sets the session's per-report offsets (and says so: alignmentChanged).
class ComparePanel : public QWidget {
    Q_OBJECT
public:
    explicit ComparePanel(ViewSession* session, QWidget* parent = nullptr);
    void setMode(AlignMode mode);
    AlignMode mode() const;
    void setNudge(int report, int64_t nudge_ns);
    const RankComparison& comparison() const { return comparison_; }
    bool busy() const { return task_.busy(); }
    QString stragglerText() const;
    void activateCollective(int row);  // as a click on that row does

signals:
    void alignmentChanged(std::vector<int64_t> offsets_ns);
    void updated();

private:
    void setReports(std::vector<std::shared_ptr<const Report>> reports);
    void recompute();
    void showComparison(RankComparison comparison);
    void fill();
    void fillCharts();

    ViewSession* session_;
    std::vector<std::shared_ptr<const Report>> reports_;
    std::vector<int64_t> nudges_;  // per report, ns, added to the alignment's offsets
    RankComparison comparison_;
    QComboBox* mode_;
    QComboBox* nudgeRank_;
    QDoubleSpinBox* nudge_;
    QLabel* skew_;
    QLabel* straggler_;
    QTableWidget* ranks_;
    QTableWidget* collectives_;
    QChart* shares_;
    QChart* waits_;
    LatestTask<RankComparison> task_{this};
};

}  // namespace lanescope
