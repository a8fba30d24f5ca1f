#pragma once
#include <QTreeWidget>
#include <vector>

#include "app/gui/panels/query/QueryConnection.h"

namespace lanescope {

// The Query panel's list of the report's tables with their columns below them: those with rows
// first, then those without (greyed), each part in QueryConnection::tables order. A double-click on a table or column
// asks for its name to be typed into the editor.
class TableList : public QTreeWidget {
    Q_OBJECT
public:
    explicit TableList(QWidget* parent = nullptr);
    void setTables(const std::vector<QueryTable>& tables);

signals:
    void insertRequested(const QString& name);
};

}  // namespace lanescope
