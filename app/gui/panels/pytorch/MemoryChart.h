#pragma once
#include <QList>
#include <QPointF>
#include <QString>
#include <QWidget>
#include <cstdint>
#include <vector>

#include "model/Report.h"

class QChart;

namespace lanescope {

// The chart's curves, made off the GUI thread (MemoryChart::curvesOf): per device its allocated
// and reserved bytes as step points (ms, MB), thinned to at most MemoryChart::kMaxPoints each,
// peaks kept; the x range is that of Report::pytorch_memory.
struct MemoryCurves {
    struct Curve {
        QString name;  // "CUDA 0 allocated"
        QList<QPointF> points;
    };
    std::vector<Curve> curves;
    double begin_ms = 0, end_ms = 0;
};

// The Memory view's curves as TensorBoard drew them: per device, the bytes PyTorch's allocator
// had allocated and reserved over time (Report::pytorch_memory's running totals), in MB against
// ms on the report's timeline (the panel's summary line names the peaks). Clicking a curve asks to
// move the timeline to that time.
class MemoryChart : public QWidget {
    Q_OBJECT
public:
    explicit MemoryChart(QWidget* parent = nullptr);
    // The curves of a report; thread-safe, for a worker thread.
    static MemoryCurves curvesOf(const Report& report);
    void setCurves(const MemoryCurves& curves);
    void clear();
    // Points drawn over all curves (each curve keeps at most kMaxPoints, peaks kept).
    qsizetype pointCount() const;
    static constexpr size_t kMaxPoints = 4000;

signals:
    // A curve was clicked at `time_ns` on the report's timeline.
    void timeClicked(int64_t time_ns);

private:
    QChart* chart_;
};

}  // namespace lanescope
