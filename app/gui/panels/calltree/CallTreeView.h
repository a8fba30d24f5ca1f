#pragma once
#include <QTreeView>
#include <cstdint>

namespace lanescope {

class CallTreeModel;

// A tree (or list) view of a CallTreeModel: Function, Self, Self %, Total, Total % and Module,
// percentages drawn over a bar of their share, sortable by any column. Opens the hottest path
// (the child with the largest Total, from the top down, while it stays above 5 % of the
// samples); a search opens the way to its matches.
// Double-click or Enter on a row asks for its function's samples on the timeline; Esc asks to
// clear them.
class CallTreeView : public QTreeView {
    Q_OBJECT
public:
    explicit CallTreeView(CallTreeModel* model, QWidget* parent = nullptr);
    CallTreeModel* callTree() const { return model_; }
    // Expands from the roots down along the largest Total while it holds 5 % of the samples or
    // more, at most `levels` deep; selects the last node on the path. A flat list (no root
    // decoration) selects its first row.
    void expandHottestPath(int levels = 64);
    // Expands the ancestors of the first `limit` matches of the search and selects the first.
    void expandMatches(int limit = 200);
    // The function column as wide as the rest of the view, or as its widest shown name.
    void fitFunctionColumn();

signals:
    void frameActivated(uint32_t frame);
    void clearRequested();

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    CallTreeModel* model_;
};

}  // namespace lanescope
