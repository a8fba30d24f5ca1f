#include "app/gui/panels/tables/StatsTableView.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <utility>

#include "app/gui/WorkPool.h"
#include "app/gui/panels/tables/StatsTableModel.h"

namespace lanescope {
namespace {

constexpr int kSortRole = StatsTableModel::kSortRole;

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
    model_ = new StatsTableModel(view_);
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
    exporting_ = new QLabel;
    exporting_->hide();
    layout->addWidget(exporting_);
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
    model_->setTable(std::move(table), kShownRows);
    wholeRows_ = 0;
    wholeCsv_ = nullptr;
    exporting_->hide();  // an export still running shows its outcome when done
    view_->resizeColumnsToContents();
    // A long text column (a call stack, a kernel's name) leaves room for the numbers after it;
    // its cells' tooltips hold the whole text.
    const int widest = std::max(view_->fontMetrics().averageCharWidth() * 60, 240);
    for (int c = 0; c + 1 < model_->columnCount(); ++c)
        if (view_->columnWidth(c) > widest) view_->setColumnWidth(c, widest);
}

const StatsTable& StatsTableView::table() const { return model_->table(); }

int StatsTableView::tableRow(int viewRow) const {
    const QVariant row = view_->model()->index(viewRow, 0).data(StatsTableModel::kTableRowRole);
    return row.isValid() ? int(row.toULongLong()) : -1;
}

void StatsTableView::copyRows() { QApplication::clipboard()->setText(rowsAsCsv(*view_)); }

void StatsTableView::setWhole(size_t rows, std::function<StatsTable()> whole) {
    setWholeCsv(rows, [whole = std::move(whole)](QIODevice& file) {
        const std::string csv = toCsv(whole());
        return file.write(csv.data(), qint64(csv.size())) == qint64(csv.size());
    });
}

void StatsTableView::setWholeCsv(size_t rows, std::function<bool(QIODevice& file)> writeCsv) {
    wholeRows_ = rows;
    wholeCsv_ = std::move(writeCsv);
}

size_t StatsTableView::hiddenRows() const { return wholeRows() - std::min(table().rows.size(), kShownRows); }

QString StatsTableView::hiddenRowsNote() const {
    if (!hiddenRows()) return {};
    return QString(" (the first %1 of %2 rows shown; Export CSV writes all)")
        .arg(QLocale().toString(qulonglong(kShownRows)), QLocale().toString(qulonglong(wholeRows())));
}

namespace {

void writeCsv(QWidget* parent, const QString& path, const StatsTable& table) {
    QSaveFile file(path);
    const std::string csv = toCsv(table);
    if (!file.open(QIODevice::WriteOnly) || file.write(csv.data(), qint64(csv.size())) != qint64(csv.size()) ||
        !file.commit())
        QMessageBox::warning(parent, "Export failed", "Cannot write " + path);
}

}  // namespace

void StatsTableView::exportCsv(const QString& suggestedName) {
    const QString path = QFileDialog::getSaveFileName(this, "Export as CSV", suggestedName + ".csv", "CSV (*.csv)");
    if (path.isEmpty()) return;
    if (!wholeCsv_) {
        writeCsv(this, path, model_->table());
        return;
    }
    // The whole table, made and written off the GUI thread; a line under the table says so
    // while it runs (a trace of millions of rows takes seconds).
    const QString name = QFileInfo(path).fileName();
    exporting_->setText(QString("Writing %1 rows to %2…").arg(QLocale().toString(qulonglong(wholeRows())), name));
    exporting_->show();
    auto* watcher = new QFutureWatcher<bool>(this);
    connect(watcher, &QFutureWatcher<bool>::finished, this, [this, watcher, path, name] {
        watcher->deleteLater();
        exporting_->setText(watcher->result() ? "Wrote " + name : "Could not write " + name);
        exporting_->show();
        if (!watcher->result()) QMessageBox::warning(this, "Export failed", "Cannot write " + path);
    });
    watcher->setFuture(QtConcurrent::run(workPool(), [writeWhole = wholeCsv_, path] {
        QSaveFile file(path);
        return file.open(QIODevice::WriteOnly) && writeWhole(file) && file.commit();
    }));
}

}  // namespace lanescope
