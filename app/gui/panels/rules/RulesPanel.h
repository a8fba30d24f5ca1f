#pragma once
#include <QWidget>
#include <memory>
#include <vector>

#include "analysis/Rules.h"
#include "app/gui/LatestTask.h"
#include "app/gui/ViewSession.h"
#include "app/gui/WhenShown.h"
#include "model/Report.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace lanescope {

// The rules of Nsight's expert system (synchronizing CUDA calls, synchronous and pageable
// memcpy, synchronous memset, low GPU utilization) with nsys's columns, for the chosen report
// and rule, computed off the GUI thread. Clicking a finding zooms to it on the timeline.
class RulesPanel : public QWidget {
    Q_OBJECT
public:
    explicit RulesPanel(ViewSession* session, QWidget* parent = nullptr);
    void setRule(const QString& name);
    int rowCount() const;
    bool busy() const { return task_.busy(); }
    void activateRow(int row);

private:
    struct Outcome {
        RuleResult result;
        QString error;
    };
    void setReports(std::vector<std::shared_ptr<const Report>> reports);
    // Computes now when the panel is shown, else once it is next shown (WhenShown).
    void recompute() { whenShown_.request(); }
    void computeNow();
    void showOutcome(Outcome outcome, int report);

    ViewSession* session_;
    std::vector<std::shared_ptr<const Report>> reports_;
    QComboBox* report_;
    QComboBox* rule_;
    QLineEdit* options_;
    QLabel* status_;
    QTableWidget* table_;
    RuleResult result_;
    int resultReport_ = -1;
    LatestTask<Outcome> task_{this};
    WhenShown whenShown_{this, [this] { computeNow(); }};
};

}  // namespace lanescope
