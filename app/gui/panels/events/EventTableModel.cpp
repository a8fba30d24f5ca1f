#include "app/gui/panels/events/EventTableModel.h"

#include <QColor>
#include <algorithm>

#include "model/EventTableText.h"

namespace lanescope {

void EventTableModel::setContents(EventTableContents contents) {
    beginResetModel();
    contents_ = std::move(contents);
    endResetModel();
}

std::optional<int> EventTableModel::rowOf(const Report* report, uint32_t lane, uint32_t index) const {
    if (!contents_.rows) return std::nullopt;
    const std::optional<size_t> base = contents_.rows->rowOf(report, lane, index);
    if (!base) return std::nullopt;
    if (!contents_.order) return int(*base);
    const EventRowOrder& order = *contents_.order;
    const auto it = std::find(order.begin(), order.end(), uint32_t(*base));
    if (it == order.end()) return std::nullopt;
    return int(it - order.begin());
}

int EventTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(contents_.size()); }

int EventTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(kEventFieldCount);
}

QVariant EventTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || size_t(index.row()) >= contents_.size() || size_t(index.column()) >= kEventFieldCount)
        return {};
    const auto field = static_cast<EventField>(index.column());
    switch (role) {
        case Qt::DisplayRole:
            return QString::fromStdString(eventCellText(*contents_.rows, eventAt(index.row()), field));
        case Qt::ToolTipRole: {
            const SourcedEvent e = eventAt(index.row());
            if (field == EventField::Start || field == EventField::End) {
                const int64_t t = field == EventField::Start ? contents_.rows->startNs(e) : contents_.rows->endNs(e);
                return QString("%1 ns on the timeline").arg(t);
            }
            if (field == EventField::Name || field == EventField::Row)
                return QString::fromStdString(eventCellText(*contents_.rows, e, field));
            return {};
        }
        case Qt::TextAlignmentRole:
            return QVariant::fromValue(eventFieldIsNumber(field) ? Qt::AlignRight | Qt::AlignVCenter
                                                                 : Qt::AlignLeft | Qt::AlignVCenter);
        case Qt::DecorationRole:
            if (field == EventField::Color) {
                const std::string text = eventCellText(*contents_.rows, eventAt(index.row()), field);
                if (!text.empty()) return QColor(QString::fromStdString(text));
            }
            return {};
        default:
            return {};
    }
}

QVariant EventTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || size_t(section) >= kEventFieldCount) return {};
    const auto field = static_cast<EventField>(section);
    if (role == Qt::DisplayRole) return QString::fromUtf8(eventFieldTitle(field));
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(eventFieldIsNumber(field) ? Qt::AlignRight | Qt::AlignVCenter
                                                             : Qt::AlignLeft | Qt::AlignVCenter);
    return {};
}

void EventTableModel::sort(int column, Qt::SortOrder order) { emit sortRequested(column, order); }

}  // namespace lanescope
