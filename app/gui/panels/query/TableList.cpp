#include "app/gui/panels/query/TableList.h"

#include <algorithm>

namespace lanescope {

TableList::TableList(QWidget* parent) : QTreeWidget(parent) {
    setHeaderHidden(true);
    setColumnCount(1);
    setRootIsDecorated(true);
    setUniformRowHeights(true);
    setTextElideMode(Qt::ElideMiddle);  // CUPTI_ACTIVITY_KIND_… tables differ at their ends
    setEditTriggers(NoEditTriggers);
    setToolTip("The report's tables and their columns; double-click one to type its name into the query");
    connect(this, &QTreeWidget::itemDoubleClicked, this,
            [this](QTreeWidgetItem* item) { emit insertRequested(item->data(0, Qt::UserRole).toString()); });
    // A double-click types the name; it does not also open or close the table.
    setExpandsOnDoubleClick(false);
}

void TableList::setTables(const std::vector<QueryTable>& tables) {
    clear();
    const QColor empty = palette().color(QPalette::PlaceholderText);
    // Those with rows first, each part in the connection's order.
    std::vector<const QueryTable*> order;
    for (const QueryTable& t : tables) order.push_back(&t);
    std::stable_partition(order.begin(), order.end(), [](const QueryTable* t) { return t->has_rows; });
    for (const QueryTable* table : order) {
        const QueryTable& t = *table;
        const QString name = QString::fromStdString(t.name);
        auto* item = new QTreeWidgetItem(this, {name});
        item->setData(0, Qt::UserRole, name);
        item->setToolTip(0, t.has_rows ? name : name + ": no rows in this report");
        if (!t.has_rows) item->setForeground(0, empty);
        for (const std::string& c : t.columns) {
            auto* column = new QTreeWidgetItem(item, {QString::fromStdString(c)});
            column->setData(0, Qt::UserRole, QString::fromStdString(c));
            if (!t.has_rows) column->setForeground(0, empty);
        }
    }
}

}  // namespace lanescope
