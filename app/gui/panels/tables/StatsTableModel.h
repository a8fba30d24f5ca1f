#pragma once
#include <QAbstractTableModel>
#include <cstddef>

#include "analysis/StatsTable.h"

namespace lanescope {

// A StatsTable as a Qt table model, its cells formatted when shown (no item per cell, so a
// table of many rows is handed over at once): the first `shownRows` rows of the table it holds,
// in its order. Numbers are right-aligned and carry their value in kSortRole; each row its index
// in the table in kTableRowRole; a long cell its whole text as tooltip.
class StatsTableModel : public QAbstractTableModel {
public:
    static constexpr int kSortRole = Qt::UserRole + 1;
    static constexpr int kTableRowRole = Qt::UserRole + 2;

    explicit StatsTableModel(QObject* parent = nullptr) : QAbstractTableModel(parent) {}
    void setTable(StatsTable table, size_t shownRows);
    const StatsTable& table() const { return table_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    StatsTable table_;
    size_t shown_ = 0;  // rows of table_ shown
};

}  // namespace lanescope
