#pragma once
#include <QList>
#include <QPointF>
#include <QString>
#include <QWidget>
#include <array>
#include <cstdint>
#include <vector>

#include "analysis/communication/CollectiveInstances.h"

class QCategoryAxis;
class QChart;
class QLabel;
class QScatterSeries;
class QStackedWidget;

namespace lanescope {

// The scatter's points, one list per operation (CollectiveOp order): x = log2 of the size in bytes,
// y = busbw in GB/s, of the rows that have a size and a positive busbw. Beyond kScatterAll such rows, at most one point
// per cell of a grid of kScatterColumns x kScatterRows over the points' extent (the first row in
// each, in the rows' order), so that hundreds of thousands of collectives draw as a few thousand
// points that keep their shape and outliers. `rows` alongside `points`: the row of CollectiveRows
// each stands for.
struct ScatterPoints {
    static constexpr size_t kScatterAll = 4000;
    static constexpr int kScatterColumns = 480, kScatterRows = 240;
    std::array<QList<QPointF>, kCollectiveOpCount> points;
    std::array<std::vector<uint32_t>, kCollectiveOpCount> rows;
    std::array<int64_t, kCollectiveOpCount> counts{};   // rows with a point, before thinning
    double min_x = 0, max_x = 0, min_y = 0, max_y = 0;  // extent of the points; all 0 when none
    size_t size() const;                                // points kept
};
ScatterPoints scatterPoints(const CollectiveRows& rows);

// Bus bandwidth against size, as nccl-tests plots it: a colour per operation, the size on a log2
// axis labelled in binary units ("1 MiB", as many labels as its width holds), busbw in GB/s (on a
// log scale when it spans more than two decades); or, when no collective has a size, a
// message saying why in its place. Hovering a point says which row it is (rowHovered), a click
// picks it (rowClicked). Its colours follow the window's theme.
class BusbwScatter : public QWidget {
    Q_OBJECT
public:
    explicit BusbwScatter(QWidget* parent = nullptr);
    // Shows `points`; `message` in place of the chart when there are none.
    void setPoints(ScatterPoints points, const QString& message);
    const ScatterPoints& points() const { return points_; }
    bool showsMessage() const;
    QString message() const;
    QChart* chart() const { return chart_; }
    // The series of an operation; nullptr when it has no point.
    QScatterSeries* series(CollectiveOp op) const { return series_[size_t(op)]; }
    static QColor colour(CollectiveOp op);

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

signals:
    void rowHovered(int row);  // -1: the cursor left the point
    void rowClicked(int row);

private:
    void clear();
    void labelSizes();  // the size axis's labels for its width
    int rowOf(CollectiveOp op, const QPointF& point) const;

    ScatterPoints points_;
    std::array<QScatterSeries*, kCollectiveOpCount> series_{};
    QChart* chart_;
    QCategoryAxis* sizeAxis_ = nullptr;  // the chart's, while it shows points
    QLabel* message_;
    QStackedWidget* pages_;
};

}  // namespace lanescope
