#pragma once
#include <QWidget>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "analysis/CpuProfile.h"
#include "model/Report.h"

namespace lanescope {

// The top-down call tree as a flame graph (drawn as an icicle: callers above their callees):
// one bar per node, x = its share of the samples, y = its depth, coloured by module. The first
// row is the root, every selected sample. Hover for the function, module, Self and Total; click
// a bar to zoom into it (it fills the width), Esc, Backspace or a right-click to zoom back out;
// double-click asks for its function's samples on the timeline. Nodes under a pixel wide are
// not drawn, nor anything below them: side by side, they merge into grey runs.
class FlameGraph : public QWidget {
    Q_OBJECT
public:
    explicit FlameGraph(QWidget* parent = nullptr);

    // rows: topDownTree's depth-first rows; samples: all selected samples (the root's width).
    void setTree(std::shared_ptr<const Report> report, std::vector<CallTreeRow> rows, uint64_t samples);
    // Case-insensitive function substring: bars of other functions are drawn faded.
    void setSearch(const QString& text);

    // The root's width in samples, and the zoomed node (nullopt: the root).
    uint64_t rootSamples() const { return samples_; }
    std::optional<uint32_t> zoomedNode() const { return zoom_.empty() ? std::nullopt : std::optional(zoom_.back()); }
    void zoomInto(uint32_t node);
    bool zoomOut();  // false when at the root
    // Where a node's bar is drawn (empty when it is not); the root is node kRoot.
    static constexpr uint32_t kRoot = UINT32_MAX;
    QRectF barRect(uint32_t node) const;
    // The node under a point: kRoot for the root bar, nullopt for none.
    std::optional<uint32_t> nodeAt(QPointF pos) const;
    const std::vector<CallTreeRow>& rows() const { return rows_; }
    static constexpr int kRowHeight = 18;

signals:
    void frameActivated(uint32_t frame);
    void clearRequested();  // Esc at the root

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;
    QSize sizeHint() const override;

private:
    // The shown span of samples [x0, x0 + width) and the first depth drawn.
    double viewX0() const;
    double viewWidth() const;
    QColor colorOf(uint32_t node) const;
    QString tooltipOf(uint32_t node) const;
    void updateHeight();

    std::shared_ptr<const Report> report_;
    std::vector<CallTreeRow> rows_;  // depth-first, as topDownTree gives them
    std::vector<uint64_t> x_;        // per node: samples left of it at its depth (its bar's left edge)
    std::vector<uint32_t> end_;      // per node: the node after its subtree
    std::vector<uint8_t> match_;     // per node: the function matches the search
    uint64_t samples_ = 0;
    uint32_t maxDepth_ = 0;
    std::vector<uint32_t> zoom_;  // zoomed nodes, outermost first
    std::optional<uint32_t> hovered_;
    QString search_;
};

}  // namespace lanescope
