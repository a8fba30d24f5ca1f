#pragma once
#include <QWidget>
#include <cstdint>

#include "model/Report.h"

class QChart;

namespace lanescope {

// The Memory view's curves as TensorBoard drew them: per device, the bytes PyTorch's allocator
// had allocated and reserved over time (Report::pytorch_memory's running totals), in MB against
// ms on the report's timeline (the panel's summary line names the peaks). Clicking a curve asks to
// move the timeline to that time.
class MemoryChart : public QWidget {
    Q_OBJECT
public:
    explicit MemoryChart(QWidget* parent = nullptr);
    void setReport(const Report& report);
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
