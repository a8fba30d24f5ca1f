#include "app/gui/panels/tables/StatsTableModel.h"

#include <algorithm>
#include <utility>

namespace lanescope {
namespace {

// Cells longer than this carry their text as tooltip (their column may be cut narrower).
constexpr qsizetype kLongCell = 60;

}  // namespace

void StatsTableModel::setTable(StatsTable table, size_t shownRows) {
    beginResetModel();
    table_ = std::move(table);
    shown_ = std::min(table_.rows.size(), shownRows);
    endResetModel();
}

int StatsTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(shown_); }

int StatsTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(table_.header.size());
}

QVariant StatsTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || size_t(index.row()) >= shown_) return {};
    const auto& row = table_.rows[size_t(index.row())];
    if (role == kTableRowRole) return qulonglong(index.row());
    if (size_t(index.column()) >= row.size()) return {};
    const StatsTable::Cell& cell = row[size_t(index.column())];
    const bool number = !std::holds_alternative<std::string>(cell);
    switch (role) {
        case Qt::DisplayRole:
            return QString::fromStdString(formatCell(cell));
        case Qt::ToolTipRole: {
            const QString text = QString::fromStdString(formatCell(cell));
            return text.size() > kLongCell ? QVariant(text) : QVariant();
        }
        case Qt::TextAlignmentRole:
            return number ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
        case kSortRole:
            if (const auto* integer = std::get_if<int64_t>(&cell)) return double(*integer);
            if (const auto* real = std::get_if<StatsTable::Real>(&cell)) return real->value;
            return {};
        default:
            return {};
    }
}

QVariant StatsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || size_t(section) >= table_.header.size())
        return QAbstractTableModel::headerData(section, orientation, role);
    return QString::fromStdString(table_.header[size_t(section)]);
}

}  // namespace lanescope
