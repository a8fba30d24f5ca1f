#pragma once
#include <QAbstractTableModel>
#include <memory>
#include <vector>

#include "analysis/GpuGaps.h"
#include "model/Report.h"

namespace lanescope {

// One GPU gap and the open report it was found in (an index into the reports the gaps were
// found in).
struct FoundGap {
    int report;
    GpuGap gap;
};

// The Gaps panel's rows: the cells of a gap are made when the view asks for them, so a report
// with a hundred thousand gaps costs the GUI thread the rows on screen, not all of them.
// Columns: Duration, Start (from its report's begin), Report, PID, GPU, Likely cause.
class GapTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;
    // `gaps` sorted as they are to be shown (longest first); each indexes `reports`.
    void setGaps(std::vector<std::shared_ptr<const Report>> reports, std::vector<FoundGap> gaps);
    const std::vector<FoundGap>& gaps() const { return gaps_; }
    const std::vector<std::shared_ptr<const Report>>& reports() const { return reports_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<std::shared_ptr<const Report>> reports_;
    std::vector<FoundGap> gaps_;  // longest first
};

}  // namespace lanescope
