#include "app/gui/panels/communication/CollectiveTableModel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "timeline/NumberFormat.h"
#include "timeline/QtText.h"
#include "timeline/TimeFormat.h"

namespace lanescope {
namespace {

// A row's value in a numeric column, for sorting: unknown values lowest.
double collectiveSortKey(const CommunicationAnalysis& a, uint32_t i, int column) {
    constexpr double kUnknown = -std::numeric_limits<double>::infinity();
    const CollectiveRows& r = a.rows;
    switch (column) {
        case CollectiveTableModel::Rank:
            return r.rank[i];
        case CollectiveTableModel::Operation:
            return double(r.op[i]);
        case CollectiveTableModel::Size:
            return r.size_bytes[i] >= 0 ? double(r.size_bytes[i]) : kUnknown;
        case CollectiveTableModel::Start:
            return double(r.start_ns[i]);
        case CollectiveTableModel::Duration:
            return double(r.duration_ns[i]);
        case CollectiveTableModel::AlgBw:
            return std::isfinite(r.algbw_gbps[i]) ? r.algbw_gbps[i] : kUnknown;
        case CollectiveTableModel::BusBw:
            return std::isfinite(r.busbw_gbps[i]) ? r.busbw_gbps[i] : kUnknown;
        case CollectiveTableModel::Wait:
            return r.wait_ns[i] >= 0 ? double(r.wait_ns[i]) : kUnknown;
        case CollectiveTableModel::Skew:
            return r.instance[i] >= 0 ? double(a.instances[size_t(r.instance[i])].skew_ns) : kUnknown;
        case CollectiveTableModel::Ranks:
            return r.ranks[i] >= 0 ? double(r.ranks[i]) : kUnknown;
        default:
            return 0;
    }
}

}  // namespace

QString CollectiveTableModel::bandwidthText(double gbps) {
    return std::isfinite(gbps) ? QString::number(gbps, 'f', 3) : QString();
}

void CollectiveTableModel::setAnalysis(std::shared_ptr<const CommunicationAnalysis> analysis,
                                       std::vector<int64_t> begin_ns) {
    beginResetModel();
    analysis_ = std::move(analysis);
    begin_ = std::move(begin_ns);
    const size_t n = analysis_ ? analysis_->rows.size() : 0;
    order_.resize(n);
    std::iota(order_.begin(), order_.end(), 0u);
    position_ = order_;
    endResetModel();
}

int CollectiveTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(order_.size());
}

int CollectiveTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant CollectiveTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !analysis_ || size_t(index.row()) >= order_.size()) return {};
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return column == Operation || column == Communicator ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                             : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    const CollectiveRows& r = analysis_->rows;
    const uint32_t i = order_[size_t(index.row())];
    switch (column) {
        case Rank:
            return int(r.rank[i]);
        case Operation:
            return qs(collectiveOpName(r.op[i]));
        case Size:
            return r.size_bytes[i] >= 0 ? qs(formatBytes(r.size_bytes[i])) : QString();
        case Start: {
            const int64_t begin = r.rank[i] < begin_.size() ? begin_[r.rank[i]] : 0;
            return qs(formatDuration(r.start_ns[i] - begin, 6));
        }
        case Duration:
            return qs(formatDuration(r.duration_ns[i]));
        case AlgBw:
            return bandwidthText(r.algbw_gbps[i]);
        case BusBw:
            return bandwidthText(r.busbw_gbps[i]);
        case Wait:
            return r.wait_ns[i] >= 0 ? qs(formatDuration(r.wait_ns[i])) : QString();
        case Skew:
            return r.instance[i] >= 0 ? qs(formatDuration(analysis_->instances[size_t(r.instance[i])].skew_ns))
                                      : QString();
        case Communicator:
            return qs(r.communicator[i]);
        case Ranks:
            return r.ranks[i] >= 0 ? QVariant(r.ranks[i]) : QVariant(QString());
        default:
            return {};
    }
}

QVariant CollectiveTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    static const char* const names[ColumnCount] = {"Rank",     "Operation",    "Size",         "Start",
                                                   "Duration", "AlgBW (GB/s)", "BusBW (GB/s)", "Wait",
                                                   "Skew",     "Ranks",        "Communicator"};
    static const char* const tips[ColumnCount] = {
        "The report's place among the open reports",
        "The collective, from the kernel's name or the profiler's record of it",
        "max(input, output) bytes, as nccl-tests counts them",
        "The kernel's start, from its report's begin",
        "The kernel's duration",
        "Size / duration",
        "AlgBW times nccl-tests' factor for the operation and the number of ranks",
        "How long this rank waited in the collective for the last rank to arrive",
        "The last rank's arrival minus the first's, for this collective",
        "Ranks in the communicator",
        "NCCL's communicator, or PyTorch's process group",
    };
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    if (role == Qt::DisplayRole) return QString(names[section]);
    if (role == Qt::ToolTipRole) return QString(tips[section]);
    return {};
}

void CollectiveTableModel::sort(int column, Qt::SortOrder order) {
    if (!analysis_ || column < 0 || column >= ColumnCount) return;
    emit layoutAboutToBeChanged();
    const QModelIndexList before = persistentIndexList();
    std::vector<uint32_t> rowsBefore;
    for (const QModelIndex& index : before) rowsBefore.push_back(order_[size_t(index.row())]);
    std::iota(order_.begin(), order_.end(), 0u);  // ties in the rows' own order
    const CommunicationAnalysis& a = *analysis_;
    const bool up = order == Qt::AscendingOrder;
    if (column == Communicator) {
        const std::vector<std::string>& c = a.rows.communicator;
        std::stable_sort(order_.begin(), order_.end(),
                         [&](uint32_t x, uint32_t y) { return up ? c[x] < c[y] : c[y] < c[x]; });
    } else {
        std::vector<double> key(order_.size());
        for (uint32_t i = 0; i < key.size(); ++i) key[i] = collectiveSortKey(a, i, column);
        std::stable_sort(order_.begin(), order_.end(),
                         [&](uint32_t x, uint32_t y) { return up ? key[x] < key[y] : key[y] < key[x]; });
    }
    for (uint32_t v = 0; v < order_.size(); ++v) position_[order_[v]] = v;
    QModelIndexList after;
    for (qsizetype k = 0; k < before.size(); ++k)
        after << index(int(position_[rowsBefore[size_t(k)]]), before[k].column());
    changePersistentIndexList(before, after);
    emit layoutChanged();
}

}  // namespace lanescope
