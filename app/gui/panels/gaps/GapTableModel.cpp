#include "app/gui/panels/gaps/GapTableModel.h"

#include <QFileInfo>
#include <QString>
#include <array>

#include "timeline/QtText.h"
#include "timeline/TimeFormat.h"

namespace lanescope {
namespace {

constexpr std::array<const char*, 6> kColumns = {"Duration", "Start", "Report", "PID", "GPU", "Likely cause"};

}  // namespace

void GapTableModel::setGaps(std::vector<std::shared_ptr<const Report>> reports, std::vector<FoundGap> gaps) {
    beginResetModel();
    reports_ = std::move(reports);
    gaps_ = std::move(gaps);
    endResetModel();
}

int GapTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(gaps_.size()); }

int GapTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(kColumns.size()); }

QVariant GapTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || size_t(index.row()) >= gaps_.size()) return {};
    if (role == Qt::TextAlignmentRole)
        return index.column() < 2 ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (role != Qt::DisplayRole) return {};
    const FoundGap& found = gaps_[size_t(index.row())];
    const Report& r = *reports_[size_t(found.report)];
    const GpuGap& g = found.gap;
    switch (index.column()) {
        case 0:
            return qs(formatDuration(g.duration_ns));
        case 1:
            return qs(formatDuration(g.start_ns - r.meta.begin_ns, 6));
        case 2:
            return QFileInfo(qs(r.meta.source_path)).fileName();
        case 3:
            return g.process >= 0 ? QString::number(r.processes[size_t(g.process)].pid) : QString();
        case 4:
            return g.gpu >= 0 ? QString("GPU %1").arg(r.gpus[size_t(g.gpu)].device_id) : QString();
        case 5:
            return qs(g.cause_text);
        default:
            return {};
    }
}

QVariant GapTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || size_t(section) >= kColumns.size())
        return {};
    return QString(kColumns[size_t(section)]);
}

}  // namespace lanescope
