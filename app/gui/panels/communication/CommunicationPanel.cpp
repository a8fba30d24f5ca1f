#include "app/gui/panels/communication/CommunicationPanel.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <bit>
#include <cmath>

#include "app/gui/panels/communication/CollectiveTableModel.h"
#include "app/gui/panels/communication/ReportCollectives.h"
#include "timeline/NumberFormat.h"
#include "timeline/QtText.h"
#include "timeline/TimeFormat.h"

namespace lanescope {
namespace {

QString commCount(int64_t n) { return QLocale(QLocale::English).toString(qlonglong(n)); }

QString commPercent(int64_t part, int64_t whole) {
    return whole > 0 ? QString("%1%").arg(100.0 * double(part) / double(whole), 0, 'f', 1) : QString("–");
}

// The summary's size bucket of a row: the largest power of two at or below its size, -1 without one.
int64_t commBucketOf(int64_t size) { return size > 0 ? int64_t(std::bit_floor(uint64_t(size))) : -1; }

QTableWidget* commTable(const QStringList& header, const QString& tip) {
    auto* t = new QTableWidget(0, int(header.size()));
    t->setHorizontalHeaderLabels(header);
    t->verticalHeader()->hide();
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setAlternatingRowColors(true);
    t->setWordWrap(false);
    t->setToolTip(tip);
    return t;
}

void commCell(QTableWidget* table, int row, int column, const QString& text, bool number) {
    auto* item = new QTableWidgetItem(text);
    if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    table->setItem(row, column, item);
}

// The width that shows every visible column of a table, and room for its scroll bar.
int commTableWidth(const QTableWidget* table) {
    int width = 2 * table->frameWidth() + table->verticalScrollBar()->sizeHint().width();
    for (int c = 0; c < table->columnCount(); ++c)
        if (!table->isColumnHidden(c)) width += table->columnWidth(c);
    return width;
}

}  // namespace

CommunicationPanel::CommunicationPanel(ViewSession* session, QWidget* parent) : QWidget(parent), session_(session) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    summary_ = new QLabel("No report open");
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    notes_ = new QLabel;
    notes_->setWordWrap(true);
    notes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    notes_->setStyleSheet("color: #c0392b");
    notes_->setVisible(false);
    layout->addWidget(summary_);
    layout->addWidget(notes_);

    summaryTable_ = commTable({"Operation", "Size bucket", "Count", "Total", "Median", "P90", "Median busbw (GB/s)"},
                              "Per operation and size (the largest power of two at or below it), as nsys's "
                              "nccl_sum; click a row to select its longest collective");
    ranksTable_ = commTable({"Rank", "Report", "Comm time", "Overlapped", "Overlap", "Wait", "Times last"},
                            "Per rank: its NCCL kernels' time, the part of it some other kernel ran on the same GPU, "
                            "and with several ranks the time it waited for the last rank and how often it was last");
    ranksTitle_ = new QLabel("Per rank");
    left_ = new QWidget;
    auto* leftLayout = new QVBoxLayout(left_);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(summaryTable_, 3);
    leftLayout->addWidget(ranksTitle_);
    leftLayout->addWidget(ranksTable_, 2);
    scatter_ = new BusbwScatter;
    auto* overview = new QSplitter(Qt::Horizontal);
    overview->addWidget(left_);
    overview->addWidget(scatter_);
    overview->setStretchFactor(0, 0);  // the tables as wide as their columns, the scatter the rest
    overview->setStretchFactor(1, 1);

    collectives_ = new CollectiveTableModel(this);
    collectivesView_ = new QTableView;
    collectivesView_->setModel(collectives_);
    collectivesView_->setSortingEnabled(true);
    collectivesView_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    collectivesView_->horizontalHeader()->setStretchLastSection(true);
    collectivesView_->horizontalHeader()->setResizeContentsPrecision(40);
    collectivesView_->verticalHeader()->hide();
    collectivesView_->verticalHeader()->setDefaultSectionSize(collectivesView_->fontMetrics().height() + 6);
    collectivesView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    collectivesView_->setSelectionMode(QAbstractItemView::SingleSelection);
    collectivesView_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    collectivesView_->setAlternatingRowColors(true);
    collectivesView_->setWordWrap(false);
    collectivesView_->setToolTip(
        "Every NCCL kernel; click or Enter: select it on the timeline. Click a header to sort");

    tabs_ = new QTabWidget;
    tabs_->setDocumentMode(true);
    tabs_->addTab(overview, "Overview");
    tabs_->addTab(collectivesView_, "Collectives");
    layout->addWidget(tabs_, 1);

    auto activate = [this](const QModelIndex& index) {
        if (index.isValid()) activateRow(collectives_->rowAt(index.row()));
    };
    connect(collectivesView_, &QTableView::clicked, this, activate);
    connect(collectivesView_, &QTableView::activated, this, activate);
    connect(summaryTable_, &QTableWidget::cellClicked, this, [this](int row, int) { activateSummaryRow(row); });
    connect(scatter_, &BusbwScatter::rowClicked, this, [this](int row) { activateRow(uint32_t(row)); });
    connect(scatter_, &BusbwScatter::rowHovered, this, [this](int row) {
        if (row < 0 || !analysis_ || size_t(row) >= analysis_->rows.size()) {
            QToolTip::hideText();
            return;
        }
        const CollectiveRows& r = analysis_->rows;
        const size_t i = size_t(row);
        QString text =
            QString("%1, %2 in %3: busbw %4 GB/s")
                .arg(qs(collectiveOpName(r.op[i])), qs(formatBytes(r.size_bytes[i])),
                     qs(formatDuration(r.duration_ns[i])), CollectiveTableModel::bandwidthText(r.busbw_gbps[i]));
        if (shown_.size() > 1) text = QString("Rank %1: %2").arg(r.rank[i]).arg(text);
        QToolTip::showText(QCursor::pos(), text, scatter_);
    });
    connect(session_, &ViewSession::reportsChanged, this, [this] {
        task_.cancel();
        showOutcome(Outcome{});  // nothing of reports no longer open as they were
        recompute();
    });
    connect(session_, &ViewSession::eventSelected, this, [this](std::optional<ViewEvent> e) { followSelection(e); });
}

const CommunicationAnalysis* CommunicationPanel::currentAnalysis() const {
    return analysis_ && stillOpen() ? analysis_.get() : nullptr;
}

bool CommunicationPanel::stillOpen() const { return !shown_.empty() && shown_ == session_->reports(); }

void CommunicationPanel::computeNow() {
    const std::vector<std::shared_ptr<const Report>>& open = session_->reports();
    if (open.empty()) {
        task_.cancel();
        showOutcome(Outcome{});
        return;
    }
    summary_->setText("Computing…");
    task_.run(
        [reports = open] {
            Outcome outcome;
            if (reports.size() == 1) {
                // One report's collectives are kept with it (Details and the timeline's colours read them too).
                outcome.analysis =
                    std::shared_ptr<const CommunicationAnalysis>(reports[0], &reportCollectives(*reports[0]));
            } else {
                std::vector<const Report*> raw;
                for (const auto& r : reports) raw.push_back(r.get());
                outcome.analysis = std::make_shared<const CommunicationAnalysis>(analyzeCommunication(raw));
            }
            outcome.summary = summarizeCollectives(outcome.analysis->rows);
            outcome.points = scatterPoints(outcome.analysis->rows);
            return outcome;
        },
        [this, reports = open](Outcome outcome) {
            shown_ = reports;
            showOutcome(std::move(outcome));
        });
}

void CommunicationPanel::showOutcome(Outcome outcome) {
    analysis_ = std::move(outcome.analysis);
    if (!analysis_) shown_.clear();
    summaryRows_ = std::move(outcome.summary);
    std::vector<int64_t> begins;
    for (const auto& r : shown_) begins.push_back(r->meta.begin_ns);
    collectives_->setAnalysis(analysis_, std::move(begins));
    collectivesView_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    const bool ranks = shown_.size() > 1;
    for (int c : {int(CollectiveTableModel::Rank), int(CollectiveTableModel::Wait), int(CollectiveTableModel::Skew)})
        collectivesView_->setColumnHidden(c, !ranks);
    if (analysis_) collectivesView_->resizeColumnsToContents();
    tabs_->setTabText(1, analysis_ ? QString("Collectives (%1)").arg(commCount(int64_t(analysis_->rows.size())))
                                   : QString("Collectives"));
    showSummaryLine();
    fillSummaryTable(summaryRows_);
    fillRanksTable();
    QString message = "No report open";
    if (analysis_) {
        message = analysis_->rows.size() == 0 ? QString("No NCCL collectives in the open reports")
                                              : QString("No collective has a size, so there is no bandwidth to plot");
        for (const std::string& note : analysis_->notes) message += "\n\n" + qs(note);
    }
    scatter_->setPoints(std::move(outcome.points), message);
    left_->setMinimumWidth(std::max(commTableWidth(summaryTable_), commTableWidth(ranksTable_)));
    followSelection(session_->selectedEvent());
}

void CommunicationPanel::showSummaryLine() {
    notes_->setVisible(false);
    if (!analysis_) {
        summary_->setText(session_->reports().empty() ? "No report open" : "Computing…");
        return;
    }
    const CollectiveRows& rows = analysis_->rows;
    if (rows.size() == 0) {
        summary_->setText(shown_.size() > 1 ? "No NCCL collectives in the open reports"
                                            : "No NCCL collectives in this report");
        return;
    }
    const int64_t sized =
        std::count_if(rows.size_bytes.begin(), rows.size_bytes.end(), [](int64_t s) { return s >= 0; });
    int64_t comm = 0, overlapped = 0;
    for (const RankCommunication& r : analysis_->ranks) {
        comm += r.comm_ns;
        overlapped += r.overlapped_ns;
    }
    QString text =
        QString("%1 %2").arg(commCount(int64_t(rows.size())), rows.size() == 1 ? "collective" : "collectives");
    if (shown_.size() > 1) text += QString(" on %1 ranks").arg(shown_.size());
    text += QString(", %1 with a size")
                .arg(sized == int64_t(rows.size()) ? QString("all")
                     : sized == 0                  ? QString("none")
                                                   : commCount(sized));
    text += QString(" · communication %1, %2 of it overlapped with compute")
                .arg(qs(formatDuration(comm)), commPercent(overlapped, comm));
    if (shown_.size() > 1) {
        text += QString(" · %1 matched on every rank").arg(commCount(int64_t(analysis_->instances.size())));
        if (analysis_->most_often_last >= 0)
            text += QString(", rank %1 last most often (%2 times)")
                        .arg(analysis_->most_often_last)
                        .arg(analysis_->ranks[size_t(analysis_->most_often_last)].times_last);
    }
    summary_->setText(text);
    if (!analysis_->notes.empty()) {
        QStringList lines;
        for (const std::string& note : analysis_->notes) lines << "⚠ " + qs(note);
        notes_->setText(lines.join('\n'));
        notes_->setVisible(true);
    }
}

void CommunicationPanel::fillSummaryTable(const std::vector<CollectiveSummaryRow>& rows) {
    summaryTable_->setRowCount(int(rows.size()));
    for (size_t i = 0; i < rows.size(); ++i) {
        const CollectiveSummaryRow& s = rows[i];
        const int r = int(i);
        commCell(summaryTable_, r, 0, qs(collectiveOpName(s.op)), false);
        summaryTable_->item(r, 0)->setData(Qt::DecorationRole, BusbwScatter::colour(s.op));
        commCell(summaryTable_, r, 1, s.bucket_bytes >= 0 ? qs(formatBytes(s.bucket_bytes)) : QString("no size"), true);
        commCell(summaryTable_, r, 2, commCount(s.count), true);
        commCell(summaryTable_, r, 3, qs(formatDuration(s.total_ns)), true);
        commCell(summaryTable_, r, 4, qs(formatDuration(std::llround(s.median_ns))), true);
        commCell(summaryTable_, r, 5, qs(formatDuration(std::llround(s.p90_ns))), true);
        commCell(summaryTable_, r, 6, CollectiveTableModel::bandwidthText(s.median_busbw_gbps), true);
    }
    summaryTable_->resizeColumnsToContents();
}

void CommunicationPanel::fillRanksTable() {
    const size_t n = analysis_ ? analysis_->ranks.size() : 0;
    const bool several = n > 1;
    ranksTitle_->setText(several ? "Per rank" : "Overlap with compute");
    ranksTable_->setColumnHidden(5, !several);
    ranksTable_->setColumnHidden(6, !several);
    ranksTable_->setRowCount(int(n));
    for (size_t i = 0; i < n; ++i) {
        const RankCommunication& r = analysis_->ranks[i];
        const int row = int(i);
        commCell(ranksTable_, row, 0, QString::number(i), true);
        const QString path = qs(shown_[i]->meta.source_path);
        commCell(ranksTable_, row, 1, QFileInfo(path).fileName(), false);
        ranksTable_->item(row, 1)->setToolTip(path);
        commCell(ranksTable_, row, 2, qs(formatDuration(r.comm_ns)), true);
        commCell(ranksTable_, row, 3, qs(formatDuration(r.overlapped_ns)), true);
        commCell(ranksTable_, row, 4, commPercent(r.overlapped_ns, r.comm_ns), true);
        commCell(ranksTable_, row, 5, several ? qs(formatDuration(r.wait_ns)) : QString(), true);
        commCell(ranksTable_, row, 6, several ? commCount(r.times_last) : QString(), true);
    }
    ranksTable_->resizeColumnsToContents();
}

void CommunicationPanel::activateRow(uint32_t row) {
    if (!analysis_ || row >= analysis_->rows.size() || !stillOpen()) return;
    const CollectiveRows& r = analysis_->rows;
    // Selecting it comes back through eventSelected, which picks its row in the table.
    session_->selectEvent(ViewEvent{int(r.rank[row]), r.lane[row], r.event[row]}, true);
}

void CommunicationPanel::activateSummaryRow(int row) {
    if (!analysis_ || row < 0 || size_t(row) >= summaryRows_.size()) return;
    const CollectiveSummaryRow& s = summaryRows_[size_t(row)];
    const CollectiveRows& r = analysis_->rows;
    std::optional<uint32_t> longest;
    for (uint32_t i = 0; i < r.size(); ++i)
        if (r.op[i] == s.op && commBucketOf(r.size_bytes[i]) == s.bucket_bytes &&
            (!longest || r.duration_ns[i] > r.duration_ns[*longest]))
            longest = i;
    if (longest) activateRow(*longest);
}

void CommunicationPanel::followSelection(std::optional<ViewEvent> event) {
    if (!event || !analysis_ || !stillOpen() || event->report < 0 || size_t(event->report) >= shown_.size()) return;
    const std::optional<size_t> row = collectiveRowOf(analysis_->rows, uint16_t(event->report),
                                                      *shown_[size_t(event->report)], {event->lane, event->event});
    if (!row) return;
    const QModelIndex index =
        collectives_->index(collectives_->viewRowOf(uint32_t(*row)), CollectiveTableModel::Operation);
    collectivesView_->setCurrentIndex(index);
    collectivesView_->scrollTo(index);
}

}  // namespace lanescope
