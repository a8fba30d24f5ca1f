#pragma once
#include <QAbstractTableModel>
#include <cstdint>
#include <memory>
#include <vector>

#include "analysis/communication/CollectiveInstances.h"

namespace lanescope {

// One row per collective of a CommunicationAnalysis (one report's NCCL kernels, or every rank's),
// its cells made when the view asks for them (a long job has hundreds of thousands). Sorting
// (a click on a header) reorders an index over the rows, ties kept in the rows' order; unknown
// values (no size, no wait) sort as the lowest.
class CollectiveTableModel : public QAbstractTableModel {
public:
    enum Column { Rank, Operation, Size, Start, Duration, AlgBw, BusBw, Wait, Skew, Ranks, Communicator, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;
    // `begin_ns`: each rank's report begin, from which Start is counted (its own timeline).
    void setAnalysis(std::shared_ptr<const CommunicationAnalysis> analysis, std::vector<int64_t> begin_ns);
    // The row of CollectiveRows shown at `viewRow`, and the view row showing `row` (-1: none).
    uint32_t rowAt(int viewRow) const { return order_[size_t(viewRow)]; }
    int viewRowOf(uint32_t row) const { return row < position_.size() ? int(position_[row]) : -1; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    void sort(int column, Qt::SortOrder order) override;
    // A bandwidth in GB/s as the tables show it, 3 decimals as lanescope-cli nccl; "" when unknown (NaN).
    static QString bandwidthText(double gbps);

private:
    std::shared_ptr<const CommunicationAnalysis> analysis_;
    std::vector<int64_t> begin_;      // per rank, ns
    std::vector<uint32_t> order_;     // rows of CollectiveRows, in view order
    std::vector<uint32_t> position_;  // per row of CollectiveRows: its view row (order_'s inverse)
};

}  // namespace lanescope
