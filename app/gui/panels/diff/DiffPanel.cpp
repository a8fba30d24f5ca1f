#include "app/gui/panels/diff/DiffPanel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QTableWidget>
#include <QVBoxLayout>

#include "analysis/ranks/RankCompare.h"

namespace lanescope {
namespace {

QTableWidgetItem* cell(const QString& text, bool number, double sortKey = 0) {
    auto* item = new QTableWidgetItem;
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    if (number) {
        item->setData(Qt::EditRole, sortKey);  // sorts by value
        item->setData(Qt::DisplayRole, text);
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    } else {
        item->setText(text);
    }
    return item;
}

QString ms(double ns) { return QString::number(ns / 1e6, 'f', 3); }

}  // namespace

DiffPanel::DiffPanel(ViewSession* session, QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* top = new QHBoxLayout;
    baseline_ = new QComboBox;
    baseline_->setToolTip("The run before the change");
    candidate_ = new QComboBox;
    candidate_->setToolTip("The run after the change");
    summary_ = new QLabel;
    top->addWidget(new QLabel("Baseline"));
    top->addWidget(baseline_);
    top->addWidget(new QLabel("Candidate"));
    top->addWidget(candidate_);
    top->addSpacing(12);
    top->addWidget(summary_, 1);
    layout->addLayout(top);
    table_ = new QTableWidget(0, 11);
    table_->setHorizontalHeaderLabels({"Category", "Name", "Base count", "Base total (ms)", "Base avg (ms)",
                                       "Cand count", "Cand total (ms)", "Cand avg (ms)", "Change (ms)", "Ratio",
                                       "Status"});
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    table_->setSortingEnabled(true);
    table_->setToolTip("Double-click a row to find the longest instance of that name");
    layout->addWidget(table_, 1);
    connect(baseline_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(candidate_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        const QTableWidgetItem* category = table_->item(row, 0);
        const QTableWidgetItem* name = table_->item(row, 1);
        const QTableWidgetItem* status = table_->item(row, 10);
        if (!category || !name || !status) return;
        const int report = status->text() == "removed" ? baseline_->currentIndex() : candidate_->currentIndex();
        // As the statistics name them: NVTX "domain:range", CUDA calls without their _vNNNN.
        const QString base = category->text() == "nvtx" ? name->text().section(':', 1) : name->text();
        emit showInstances(
            report, "^" + QRegularExpression::escape(base) + (category->text() == "cuda_api" ? "(_v[0-9]+)?$" : "$"));
    });
    connect(session, &ViewSession::reportsChanged, this, [this, session] { setReports(session->reports()); });
}

void DiffPanel::setReports(std::vector<std::shared_ptr<const Report>> reports) {
    reports_ = std::move(reports);
    const QSignalBlocker blockBase(baseline_), blockCand(candidate_);
    baseline_->clear();
    candidate_->clear();
    for (const auto& r : reports_) {
        baseline_->addItem(QString::fromStdString(reportTitle(*r)));
        candidate_->addItem(QString::fromStdString(reportTitle(*r)));
    }
    baseline_->setCurrentIndex(0);
    candidate_->setCurrentIndex(int(reports_.size()) - 1);
    recompute();
}

void DiffPanel::setPair(int baseline, int candidate) {
    const QSignalBlocker block(baseline_);
    baseline_->setCurrentIndex(baseline);
    candidate_->setCurrentIndex(candidate);
    recompute();
}

void DiffPanel::computeNow() {
    const int b = baseline_->currentIndex(), c = candidate_->currentIndex();
    if (reports_.size() < 2 || b < 0 || c < 0) {
        task_.cancel();
        rows_.clear();
        summary_->setText("Open two reports (a run before and after a change) to compare them by name.");
        fill();
        emit updated();
        return;
    }
    summary_->setText("Comparing…");
    auto base = reports_[size_t(b)], cand = reports_[size_t(c)];
    task_.run([base, cand] { return diffRuns(*base, *cand); },
              [this](std::vector<DiffRow> rows) { showRows(std::move(rows)); });
}

void DiffPanel::showRows(std::vector<DiffRow> rows) {
    rows_ = std::move(rows);
    int added = 0, removed = 0;
    for (const DiffRow& r : rows_) {
        added += std::string_view(r.status()) == "added";
        removed += std::string_view(r.status()) == "removed";
    }
    summary_->setText(
        QString("%1 names, %2 added, %3 removed; largest change first").arg(rows_.size()).arg(added).arg(removed));
    fill();
    emit updated();
}

void DiffPanel::fill() {
    table_->setSortingEnabled(false);
    table_->setRowCount(int(rows_.size()));
    for (size_t i = 0; i < rows_.size(); ++i) {
        const DiffRow& r = rows_[i];
        const int row = int(i);
        table_->setItem(row, 0, cell(QString::fromStdString(r.category), false));
        table_->setItem(row, 1, cell(QString::fromStdString(r.name), false));
        table_->setItem(row, 2, cell(QString::number(r.base_count), true, double(r.base_count)));
        table_->setItem(row, 3, cell(ms(double(r.base_total_ns)), true, double(r.base_total_ns)));
        table_->setItem(row, 4, cell(ms(r.baseMean()), true, r.baseMean()));
        table_->setItem(row, 5, cell(QString::number(r.cand_count), true, double(r.cand_count)));
        table_->setItem(row, 6, cell(ms(double(r.cand_total_ns)), true, double(r.cand_total_ns)));
        table_->setItem(row, 7, cell(ms(r.candMean()), true, r.candMean()));
        table_->setItem(row, 8, cell((r.delta() > 0 ? "+" : "") + ms(double(r.delta())), true, double(r.delta())));
        table_->setItem(
            row, 9,
            cell(r.hasRatio() ? QString::number(r.ratio(), 'f', 3) : "new", true, r.hasRatio() ? r.ratio() : 1e300));
        auto* status = cell(r.status(), false);
        if (std::string_view(r.status()) == "added") status->setForeground(QColor(0xC0392B));
        if (std::string_view(r.status()) == "removed") status->setForeground(QColor(0x1E8449));
        table_->setItem(row, 10, status);
    }
    table_->resizeColumnsToContents();
    table_->setColumnWidth(1, std::min(table_->columnWidth(1), 420));
}

}  // namespace lanescope
