#include "app/gui/CallTreeView.h"

#include <QHeaderView>
#include <QKeyEvent>
#include <QPainter>
#include <QStyledItemDelegate>

#include "app/gui/CallTreeModel.h"

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
    setUniformRowHeights(true);  // constant-time layout however many rows are open
    setAlternatingRowColors(true);
    setSortingEnabled(true);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setTextElideMode(Qt::ElideMiddle);
    header()->setStretchLastSection(true);
    header()->setSortIndicatorShown(true);
    header()->setSectionsMovable(false);
    auto* share = new ShareDelegate(this);
    setItemDelegateForColumn(CallTreeModel::SelfPercent, share);
    setItemDelegateForColumn(CallTreeModel::TotalPercent, share);
    const int digits = fontMetrics().horizontalAdvance("0000000000");
    setColumnWidth(CallTreeModel::Function, 520);
    for (int c : {CallTreeModel::Self, CallTreeModel::Total}) setColumnWidth(c, digits);
    for (int c : {CallTreeModel::SelfPercent, CallTreeModel::TotalPercent}) setColumnWidth(c, digits + 10);
    connect(this, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.isValid()) emit frameActivated(index.data(CallTreeModel::kFrameRole).toUInt());
    });
}

void CallTreeView::expandHottestPath(int levels) {
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
        if (!hottest.isValid()) break;
        last = hottest;
        if (!model_->hasChildren(hottest)) break;
        expand(hottest);
        at = hottest;
    }
    if (last.isValid()) {
        setCurrentIndex(last);
        scrollTo(last);
    }
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
        scrollTo(first);
    }
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
