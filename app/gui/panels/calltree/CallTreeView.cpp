#include "app/gui/panels/calltree/CallTreeView.h"

#include <QHeaderView>
#include <QKeyEvent>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QTimer>

#include "app/gui/panels/calltree/CallTreeModel.h"

namespace lanescope {
namespace {

// Draws a percentage cell over a bar as long as its share of all samples.
class ShareDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* p, const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        const double share = std::clamp(index.data(CallTreeModel::kShareRole).toDouble(), 0.0, 1.0);
        if (share > 0 && !(option.state & QStyle::State_Selected)) {
            const QRect r = option.rect.adjusted(2, 3, -2, -3);
            QColor bar = index.column() == CallTreeModel::TotalPercent ? QColor(64, 140, 230) : QColor(230, 120, 40);
            bar.setAlpha(90);
            p->fillRect(QRect(r.left(), r.top(), std::max(1, int(r.width() * share)), r.height()), bar);
        }
        QStyledItemDelegate::paint(p, option, index);
    }
};

}  // namespace

CallTreeView::CallTreeView(CallTreeModel* model, QWidget* parent) : QTreeView(parent), model_(model) {
    setModel(model);
    setUniformRowHeights(true);      // constant-time layout however many rows are open
    setExpandsOnDoubleClick(false);  // a double-click marks the function on the timeline
    setAlternatingRowColors(true);
    setSortingEnabled(true);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setTextElideMode(Qt::ElideMiddle);
    header()->setStretchLastSection(false);  // the function column: fitFunctionColumn
    header()->setSortIndicatorShown(true);
    auto* share = new ShareDelegate(this);
    setItemDelegateForColumn(CallTreeModel::SelfPercent, share);
    setItemDelegateForColumn(CallTreeModel::TotalPercent, share);
    setIndentation(14);
    // Numbers first, the function last: stacks run a hundred deep and the indentation pushes
    // names right, so the function column takes the rest of the width and scrolls, and the
    // counts stay in sight. The tree's branches follow the function column.
    QHeaderView* h = header();
    int visual = 0;
    for (int c : {CallTreeModel::Total, CallTreeModel::TotalPercent, CallTreeModel::Self, CallTreeModel::SelfPercent,
                  CallTreeModel::Module, CallTreeModel::Function})
        h->moveSection(h->visualIndex(c), visual++);
    setTreePosition(CallTreeModel::Function);
    const int digits = fontMetrics().horizontalAdvance("000000000");
    for (int c : {CallTreeModel::Self, CallTreeModel::Total}) setColumnWidth(c, digits);
    for (int c : {CallTreeModel::SelfPercent, CallTreeModel::TotalPercent}) setColumnWidth(c, digits + 16);
    setColumnWidth(CallTreeModel::Module, fontMetrics().horizontalAdvance("_multiarray_umath.cpython-31"));
    connect(this, &QTreeView::expanded, this,
            [this] { QTimer::singleShot(0, this, &CallTreeView::fitFunctionColumn); });
    connect(this, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.isValid()) emit frameActivated(index.data(CallTreeModel::kFrameRole).toUInt());
    });
}

void CallTreeView::expandHottestPath(int levels) {
    constexpr double kHotShare = 0.05;
    if (!rootIsDecorated()) {  // a flat list: its top, the hottest by its own order
        setCurrentIndex(model_->index(0, 0));
        scrollToTop();
        fitFunctionColumn();
        return;
    }
    QModelIndex at;  // the invisible root
    QModelIndex last;
    for (int level = 0; level < levels; ++level) {
        QModelIndex hottest;
        qulonglong most = 0;
        for (int r = 0, n = model_->rowCount(at); r < n; ++r) {
            const QModelIndex child = model_->index(r, CallTreeModel::Total, at);
            const qulonglong total = child.data(CallTreeModel::kValueRole).toULongLong();
            if (!hottest.isValid() || total > most) hottest = child.siblingAtColumn(0), most = total;
        }
        // Where the path cools (under 5 % of the samples) it stops: a stack that splits into
        // many cold callees would otherwise open down to a one-sample leaf.
        const double share =
            hottest.isValid() ? hottest.siblingAtColumn(CallTreeModel::Total).data(CallTreeModel::kShareRole).toDouble()
                              : 0.0;
        if (!hottest.isValid() || (last.isValid() && share < kHotShare)) break;
        last = hottest;
        if (!model_->hasChildren(hottest)) break;
        expand(hottest);
        at = hottest;
    }
    if (last.isValid()) {
        setCurrentIndex(last);
        scrollTo(last.siblingAtColumn(CallTreeModel::Total));  // keeping the counts in sight
    }
    fitFunctionColumn();
}

void CallTreeView::expandMatches(int limit) {
    const std::vector<uint32_t> found = model_->matches();
    QModelIndex first;
    for (size_t i = 0; i < found.size() && int(i) < limit; ++i) {
        const QModelIndex index = model_->indexOf(found[i]);
        if (!first.isValid()) first = index;
        for (QModelIndex up = index.parent(); up.isValid(); up = up.parent()) expand(up);
    }
    if (first.isValid()) {
        setCurrentIndex(first);
        scrollTo(first.siblingAtColumn(CallTreeModel::Total));
    }
    fitFunctionColumn();
}

void CallTreeView::fitFunctionColumn() {
    int others = 0;
    for (int c = 0; c < CallTreeModel::ColumnCount; ++c)
        if (c != CallTreeModel::Function) others += columnWidth(c);
    setColumnWidth(CallTreeModel::Function,
                   std::max(viewport()->width() - others, sizeHintForColumn(CallTreeModel::Function)));
}

void CallTreeView::resizeEvent(QResizeEvent* event) {
    QTreeView::resizeEvent(event);
    fitFunctionColumn();
}

void CallTreeView::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape) {
        emit clearRequested();
        return;
    }
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) && currentIndex().isValid()) {
        emit frameActivated(currentIndex().data(CallTreeModel::kFrameRole).toUInt());
        return;
    }
    QTreeView::keyPressEvent(event);
}

}  // namespace lanescope
