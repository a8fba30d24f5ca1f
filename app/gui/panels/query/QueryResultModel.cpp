#include "app/gui/panels/query/QueryResultModel.h"

#include <QApplication>
#include <QPalette>

namespace lanescope {
namespace {

constexpr int kCellChars = 300;  // text longer than this is cut in the cell, whole in the tooltip

}  // namespace

void QueryResultModel::setResult(QueryResult result) {
    beginResetModel();
    result_ = std::move(result);
    endResetModel();
}

int QueryResultModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(result_.rowCount());
}

int QueryResultModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(result_.columnCount());
}

QString QueryResultModel::text(size_t row, size_t column) const {
    switch (result_.type(row, column)) {
        case QueryResult::Type::Null:
            return QStringLiteral("NULL");
        case QueryResult::Type::Integer:
            return QString::number(result_.integer(row, column));
        case QueryResult::Type::Real:
            return QString::number(result_.real(row, column), 'g', 15);
        case QueryResult::Type::Text: {
            const std::string_view t = result_.text(row, column);
            return QString::fromUtf8(t.data(), qsizetype(t.size()));
        }
    }
    return {};
}

QVariant QueryResultModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || size_t(index.row()) >= result_.rowCount()) return {};
    const auto row = size_t(index.row()), column = size_t(index.column());
    const QueryResult::Type type = result_.type(row, column);
    switch (role) {
        case Qt::DisplayRole: {
            QString t = text(row, column);
            if (t.size() > kCellChars) t = t.left(kCellChars) + QChar(0x2026);
            return t;
        }
        case Qt::ToolTipRole:
            return type == QueryResult::Type::Text && result_.text(row, column).size() > 40 ? text(row, column)
                                                                                            : QVariant();
        case Qt::TextAlignmentRole:
            return type == QueryResult::Type::Integer || type == QueryResult::Type::Real
                       ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                       : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
        case Qt::ForegroundRole:
            return type == QueryResult::Type::Null ? QVariant(QApplication::palette().color(QPalette::PlaceholderText))
                                                   : QVariant();
        default:
            return {};
    }
}

QVariant QueryResultModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || section < 0) return {};
    if (orientation == Qt::Vertical) return section + 1;
    if (size_t(section) >= result_.columnCount()) return {};
    return QString::fromStdString(result_.columns()[size_t(section)]);
}

}  // namespace lanescope
