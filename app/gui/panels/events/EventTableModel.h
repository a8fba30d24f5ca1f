#pragma once
#include <QAbstractTableModel>
#include <memory>
#include <optional>
#include <vector>

#include "model/EventOrder.h"
#include "model/EventRows.h"

namespace lanescope {

// What the Events table shows: the events of some lanes in a range (in start order), and the
// order of the rows shown when sorted or filtered (null: every row, in start order). `reports`
// keeps the reports the rows point into alive.
struct EventTableContents {
    std::vector<std::shared_ptr<const Report>> reports;
    std::shared_ptr<const EventRows> rows;
    std::shared_ptr<const EventRowOrder> order;

    size_t size() const { return order ? order->size() : rows ? rows->size() : 0; }
    SourcedEvent at(size_t row) const { return rows->at(order ? (*order)[row] : row); }
};

// The Events table as a Qt model over the columnar lanes: one column per EventField, rowCount
// the number of events shown, and data() computing each cell from (lane, event index) when the
// view asks for it (model/EventTableText.h). Nothing is stored per row but the order array.
// sort() only asks (sortRequested): the panel sorts off the GUI thread and sets new contents.
class EventTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

    void setContents(EventTableContents contents);
    const EventTableContents& contents() const { return contents_; }
    SourcedEvent eventAt(int row) const { return contents_.at(size_t(row)); }
    // The row showing an event of lane `lane` of `report`, if it is shown. O(log n) in start
    // order, O(n) when sorted or filtered.
    std::optional<int> rowOf(const Report* report, uint32_t lane, uint32_t index) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order) override;

signals:
    void sortRequested(int column, Qt::SortOrder order);

private:
    EventTableContents contents_;
};

}  // namespace lanescope
