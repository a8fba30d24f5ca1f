#pragma once
#include <QAbstractItemModel>
#include <QString>
#include <cstdint>
#include <memory>
#include <vector>

#include "analysis/CpuProfile.h"
#include "model/Report.h"

namespace lanescope {

// "12.5 %": part of whole samples, one decimal (0 % of none).
QString percentText(uint64_t part, uint64_t whole);

// One call tree (top-down or bottom-up) or the flat list (every row at depth 0), as the rows of
// analysis/CpuProfile.h plus who is whose parent. Built off the GUI thread; a node is its index
// in `rows`, which stay in the depth-first order they came in (a parent before its children).
// Counts are samples.
struct CallTree {
    static constexpr uint32_t kNoParent = UINT32_MAX;
    std::vector<CallTreeRow> rows;  // depth-first, children by total descending (analysis order)
    std::vector<uint32_t> parent;   // per node: its parent node, or kNoParent at depth 0
    uint64_t samples = 0;           // all selected samples (with or without a stack): 100 %
    uint32_t max_depth = 0;         // deepest row's depth (0 for none)

    static CallTree fromRows(std::vector<CallTreeRow> rows, uint64_t samples);
};

// A QAbstractItemModel over a CallTree, one item per node with no per-node objects: children
// lists are kept as one array of segments (CSR), sorted by the view's column and filtered by a
// function-name search (a node shows when its function matches or one below it does; matching
// nodes are drawn highlighted). Sorting and searching keep the view's expanded nodes.
class CallTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { Function, Self, SelfPercent, Total, TotalPercent, Module, ColumnCount };
    static constexpr int kValueRole = Qt::UserRole + 1;  // the number behind a cell (qulonglong or double)
    static constexpr int kFrameRole = Qt::UserRole + 2;  // the node's frame (into Report::stacks)
    static constexpr int kMatchRole = Qt::UserRole + 3;  // bool: the function matches the search
    static constexpr int kShareRole = Qt::UserRole + 4;  // double 0..1: the cell's count of all samples

    explicit CallTreeModel(QObject* parent = nullptr);

    // Replaces the tree (a reset). The order is kept: the column sorted by last stays sorted.
    void setTree(std::shared_ptr<const Report> report, CallTree tree);
    const CallTree& tree() const { return tree_; }
    const Report* report() const { return report_.get(); }
    // Case-insensitive substring of the function name; empty: every node.
    void setSearch(const QString& text);
    const QString& search() const { return search_; }
    // Nodes shown whose function matches the search (none without one), in node order.
    std::vector<uint32_t> matches() const;

    uint32_t nodeOf(const QModelIndex& index) const { return uint32_t(index.internalId()); }
    QModelIndex indexOf(uint32_t node, int column = 0) const;
    QString functionName(uint32_t node) const;
    QString moduleName(uint32_t node) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    // Rebuilds children_ from tree_ under the current order and search; row_ follows.
    void arrange();
    void rearrangeKeepingIndexes();
    bool less(uint32_t a, uint32_t b) const;
    uint32_t segmentOf(const QModelIndex& parent) const;

    std::shared_ptr<const Report> report_;
    CallTree tree_;
    // Shown children of node n: child_[offset_[n] .. offset_[n + 1]); segment rows.size() holds
    // the roots. row_[n]: n's position in its parent's segment (meaningful when shown_[n]).
    std::vector<uint32_t> offset_, child_, row_;
    std::vector<uint8_t> shown_, match_;  // per node
    QString search_;
    int sortColumn_ = -1;  // -1: the tree's own order
    Qt::SortOrder sortOrder_ = Qt::DescendingOrder;
};

}  // namespace lanescope
