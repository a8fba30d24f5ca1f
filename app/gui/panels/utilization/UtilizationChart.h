#pragma once
#include <QPointF>
#include <QWidget>
#include <memory>
#include <vector>

#include "app/gui/LatestTask.h"
#include "app/gui/ViewSession.h"
#include "app/gui/WhenShown.h"
#include "model/Report.h"

class QChart;
class QChartView;
class QSpinBox;

namespace lanescope {

// GPU utilization over the timeline's visible range (Qt Charts): per GPU of every report the
// busy share of each of 100 equal chunks, with a threshold line; it follows the session's
// visible range, reports and offsets, recomputed off the GUI thread.
class UtilizationChart : public QWidget {
    Q_OBJECT
public:
    explicit UtilizationChart(ViewSession* session, QWidget* parent = nullptr);
    int seriesCount() const;
    bool busy() const { return task_.busy(); }

private:
    struct Curve {
        QString name;
        std::vector<QPointF> points;  // (ms from the view's start, busy %)
    };
    // Computes now when the panel is shown, else once it is next shown (WhenShown).
    void recompute() { whenShown_.request(); }
    void computeNow();
    void showCurves(const std::vector<Curve>& curves, int64_t begin_ns, int64_t end_ns);

    ViewSession* session_;
    QChart* chart_;
    QChartView* view_;
    QSpinBox* threshold_;
    LatestTask<std::vector<Curve>> task_{this};
    WhenShown whenShown_{this, [this] { computeNow(); }};
};

}  // namespace lanescope
