#pragma once
#include <QWidget>
#include <memory>
#include <vector>

#include "model/Report.h"
#include "timeline/TimelineView.h"

class QChart;
class QChartView;
class QSpinBox;

namespace lanescope {

// GPU utilization over the timeline's visible range (Qt Charts): per GPU of every report the
// busy share of each of 100 equal chunks, with a threshold line; it follows the timeline
// viewport, recomputed off the GUI thread.
class UtilizationChart : public QWidget {
    Q_OBJECT
public:
    explicit UtilizationChart(TimelineView* timeline, QWidget* parent = nullptr);
    void setReports(std::vector<std::shared_ptr<const Report>> reports);
    int seriesCount() const;
    bool busy() const { return pending_ > 0; }

private:
    void recompute();

    TimelineView* timeline_;
    std::vector<std::shared_ptr<const Report>> reports_;
    QChart* chart_;
    QChartView* view_;
    QSpinBox* threshold_;
    int generation_ = 0;
    int pending_ = 0;
};

}  // namespace lanescope
