#include "app/gui/panels/tables/StatsTableView.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QHeaderView>
#include <QLineEdit>
#include <QMessageBox>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

namespace lanescope {
namespace {

constexpr int kSortRole = Qt::UserRole + 1;
constexpr int kTableRowRole = Qt::UserRole + 2;

// Sorts numbers as numbers: each numeric cell carries its value in kSortRole.
class NumericProxy : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    bool lessThan(const QModelIndex& a, const QModelIndex& b) const override {
        const QVariant va = a.data(kSortRole), vb = b.data(kSortRole);
        if (va.typeId() == QMetaType::Double && vb.typeId() == QMetaType::Double) return va.toDouble() < vb.toDouble();
        return QString::localeAwareCompare(a.data().toString(), b.data().toString()) < 0;
    }
};

QString csvCell(const QString& text) { return QString::fromStdString(csvField(text.toStdString())); }

}  // namespace

void fillStatsModel(QStandardItemModel& model, const StatsTable& table) {
    model.clear();
    QStringList header;
    for (const auto& h : table.header) header << QString::fromStdString(h);
    model.setHorizontalHeaderLabels(header);
    for (size_t r = 0; r < table.rows.size(); ++r) {
        QList<QStandardItem*> items;
        for (const auto& cell : table.rows[r]) {
            auto* item = new QStandardItem(QString::fromStdString(formatCell(cell)));
            if (item->text().size() > 60) item->setToolTip(item->text());
            if (!std::holds_alternative<std::string>(cell)) {
                const double value = std::holds_alternative<int64_t>(cell) ? double(std::get<int64_t>(cell))
                                                                           : std::get<StatsTable::Real>(cell).value;
                item->setData(value, kSortRole);
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            }
            items << item;
        }
        if (!items.isEmpty()) items.front()->setData(qulonglong(r), kTableRowRole);
        model.appendRow(items);
    }
}

QString rowsAsCsv(const QTableView& view) {
    const auto* model = view.model();
    QModelIndexList rows = view.selectionModel() ? view.selectionModel()->selectedRows() : QModelIndexList{};
    if (rows.isEmpty())
        for (int r = 0; r < model->rowCount(); ++r) rows << model->index(r, 0);
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    QStringList lines;
    QStringList header;
    for (int c = 0; c < model->columnCount(); ++c) header << csvCell(model->headerData(c, Qt::Horizontal).toString());
    lines << header.join(',');
    for (const QModelIndex& r : rows) {
        QStringList cells;
        for (int c = 0; c < model->columnCount(); ++c) cells << csvCell(model->index(r.row(), c).data().toString());
        lines << cells.join(',');
    }
    return lines.join('\n') + '\n';
}

StatsTableView::StatsTableView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);
    filter_ = new QLineEdit;
    filter_->setPlaceholderText("Filter by name");
    filter_->setClearButtonEnabled(true);
    filter_->setToolTip("Show only the rows containing this text in any column (case-insensitive)");
    view_ = new QTableView;
    model_ = new QStandardItemModel(view_);
    auto* proxy = new NumericProxy(view_);
    proxy->setSourceModel(model_);
    proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy->setFilterKeyColumn(-1);
    view_->setModel(proxy);
    view_->setSortingEnabled(true);
    view_->sortByColumn(-1, Qt::AscendingOrder);  // the table's own order until a header is clicked
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->setAlternatingRowColors(true);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->horizontalHeader()->setResizeContentsPrecision(40);  // size columns from 40 rows
    connect(filter_, &QLineEdit::textChanged, proxy, &QSortFilterProxyModel::setFilterFixedString);
    layout->addWidget(filter_);
    layout->addWidget(view_, 1);
    auto* copy = new QAction(view_);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    connect(copy, &QAction::triggered, this, &StatsTableView::copyRows);
    view_->addAction(copy);
    auto activated = [this](const QModelIndex& index) {
        if (const int row = tableRow(index.row()); row >= 0) emit rowActivated(row);
    };
    connect(view_, &QTableView::clicked, this, activated);
    connect(view_, &QTableView::activated, this, activated);
}

void StatsTableView::setTable(StatsTable table) {
    table_ = std::move(table);
    fillStatsModel(*model_, table_);
    view_->resizeColumnsToContents();
    // A long text column (a call stack, a kernel's name) leaves room for the numbers after it;
    // its cells' tooltips hold the whole text.
    const int widest = std::max(view_->fontMetrics().averageCharWidth() * 60, 240);
    for (int c = 0; c + 1 < model_->columnCount(); ++c)
        if (view_->columnWidth(c) > widest) view_->setColumnWidth(c, widest);
}

int StatsTableView::tableRow(int viewRow) const {
    const QVariant row = view_->model()->index(viewRow, 0).data(kTableRowRole);
    return row.isValid() ? int(row.toULongLong()) : -1;
}

void StatsTableView::copyRows() { QApplication::clipboard()->setText(rowsAsCsv(*view_)); }

void StatsTableView::exportCsv(const QString& suggestedName) {
    const QString path = QFileDialog::getSaveFileName(this, "Export as CSV", suggestedName + ".csv", "CSV (*.csv)");
    if (path.isEmpty()) return;
    QSaveFile file(path);
    const std::string csv = toCsv(table_);
    if (!file.open(QIODevice::WriteOnly) || file.write(csv.data(), qint64(csv.size())) != qint64(csv.size()) ||
        !file.commit())
        QMessageBox::warning(this, "Export failed", "Cannot write " + path);
}

}  // namespace lanescope
