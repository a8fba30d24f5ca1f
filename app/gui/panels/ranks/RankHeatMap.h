#pragma once
#include <QImage>
#include <QString>
#include <QWidget>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "analysis/ranks/StepGrid.h"

class QScrollBar;

namespace lanescope {

// Ranks by steps at a glance (the Ranks panel's heat map): a row per rank, in the order set,
// a column per step number, each cell coloured by the step's duration or by the time the rank
// waited in collectives during it (setMeasure). One colour scale, light (short) to dark red
// (long), from the 1st to the 99th percentile of the cells (beyond, colours saturate); outliers
// (StepGrid) outlined in blue, or filled blue where cells are too small to outline; steps a
// rank did not run grey. Hovering shows the figures; a click says which cell (cellClicked).
//
// Painted with QPainter: the cells in sight go into an image of a pixel per cell (or per pixel
// column where steps outnumber pixels, each its steps' maximum), drawn scaled in one call, so
// that 1,024 ranks x 100 steps paint in a few ms (lanescope-bench compare, heatmap_paint_ms).
// Rows are between kMinRowPx and kMaxRowPx high; more ranks than fit scroll.
class RankHeatMap : public QWidget {
    Q_OBJECT
public:
    enum class Measure { StepTime, Wait };
    static constexpr int kMinRowPx = 2, kMaxRowPx = 20;

    explicit RankHeatMap(QWidget* parent = nullptr);

    // The grid and a label per rank (in the grid's rank order); the order becomes the grid's.
    void setGrid(StepGrid grid, std::vector<QString> labels);
    const StepGrid& grid() const { return grid_; }
    void setMeasure(Measure measure);
    Measure measure() const { return measure_; }
    // The ranks top to bottom: a permutation of the grid's rank indexes.
    void setOrder(std::vector<int> order);
    const std::vector<int>& order() const { return order_; }

    // The cell under a widget point as (rank in the grid, column), if any.
    std::optional<std::pair<int, int>> cellAt(QPoint pos) const;
    // Where a cell is drawn, in widget coordinates; empty when scrolled out of sight.
    QRect cellRect(int rank, int column) const;
    QString cellTooltip(int rank, int column) const;
    // Per grid rank, 1 where the rank has a timeline (a click shows its step there), 0 where it
    // has none (a rank summary whose report is not open); empty: every rank has one.
    void setTimelines(std::vector<uint8_t> shown) { timelines_ = std::move(shown); }
    // The scale's ends for the current measure, ns: the 1st and the 99th percentile of the cells.
    std::pair<int64_t, int64_t> scale() const { return measure_ == Measure::StepTime ? stepScale_ : waitScale_; }

    QSize sizeHint() const override { return {480, 260}; }
    QSize minimumSizeHint() const override { return {160, 60}; }

signals:
    void cellClicked(int rank, int column);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRect plotArea() const;  // the cells' area, scrollbar and labels excluded
    double columnWidth() const;
    int rowHeight() const;
    void updateLayout();  // label width, row height, scrollbar range
    void paintCells(class QPainter& p, int firstRow, int lastRow);
    void paintAxes(QPainter& p, int firstRow, int lastRow);
    void paintLegend(QPainter& p);
    const std::vector<int64_t>& values() const { return measure_ == Measure::StepTime ? grid_.step_ns : grid_.wait_ns; }
    const std::vector<uint8_t>& outliers() const {
        return measure_ == Measure::StepTime ? grid_.step_outlier : grid_.wait_outlier;
    }

    StepGrid grid_;
    std::vector<QString> labels_;     // per rank in the grid
    std::vector<int> order_;          // grid rank indexes, top to bottom
    std::vector<uint8_t> timelines_;  // per grid rank: 1 with a timeline; empty: all
    Measure measure_ = Measure::StepTime;
    std::pair<int64_t, int64_t> stepScale_{0, 1}, waitScale_{0, 1};  // ns
    std::vector<QRgb> colors_;                                       // the scale, light to dark
    QImage cells_;                                                   // reused between paints
    QScrollBar* scroll_;
    int labelWidth_ = 60;
    std::optional<std::pair<int, int>> hovered_;
};

}  // namespace lanescope
