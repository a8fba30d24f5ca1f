#pragma once
#include <QWidget>

#include "analysis/StatsTable.h"

class QChart;

namespace lanescope {

// The Overview's step-time breakdown as TensorBoard drew it: one stacked bar per step, its span
// split into the overview's categories (Kernel, Memcpy, Memset, Runtime, DataLoader, CPU Exec,
// Other), in ms. Clicking a bar asks to show that step.
class StepChart : public QWidget {
    Q_OBJECT
public:
    explicit StepChart(QWidget* parent = nullptr);
    // The steps table of the overview (analysis/pytorch/StepOverview.h); its category columns
    // are found by their headers ("Kernel (ns)", ...).
    void setSteps(const StatsTable& steps);
    int barCount() const { return bars_; }

signals:
    // The step of row `row` of the steps table was clicked.
    void stepClicked(int row);

private:
    QChart* chart_;
    int bars_ = 0;
};

}  // namespace lanescope
