#pragma once
#include <QAbstractTableModel>

#include "app/gui/panels/query/QueryResult.h"

namespace lanescope {

// The Query panel's result table over the rows of a QueryResult, in the query's order: each
// cell's text made when the view asks for it; numbers right-aligned, NULL greyed, long text
// whole in the tooltip.
class QueryResultModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;
    void setResult(QueryResult result);
    const QueryResult& result() const { return result_; }
    // A cell's whole text ("NULL" for NULL).
    QString text(size_t row, size_t column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QueryResult result_;
};

}  // namespace lanescope
