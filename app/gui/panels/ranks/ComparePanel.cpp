#include "app/gui/panels/ranks/ComparePanel.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QHash>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QHorizontalPercentBarSeries>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <limits>
#include <utility>

#include "app/gui/panels/ranks/CompareWidgets.h"
#include "app/gui/panels/ranks/RankHeatMap.h"
#include "timeline/TimeFormat.h"

namespace lanescope {

using namespace compare_ui;

const QStringList& ComparePanel::rankColumns() {
    static const QStringList columns{
        "Rank",   "Offset (ms)",   "Steps",       "Step avg (ms)",         "Slow steps", "Compute %",   "Comm %",
        "Idle %", "Comm hidden %", "Waited (ms)", "Made others wait (ms)", "Last",       "MPI P2P (ms)"};
    return columns;
}

ComparePanel::ComparePanel(ViewSession* session, QWidget* parent) : QWidget(parent), session_(session) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* top = new QHBoxLayout;
    mode_ = new QComboBox;
    mode_->addItem("Automatic", int(AlignMode::Auto));
    mode_->addItem("NCCL collectives", int(AlignMode::Nccl));
    mode_->addItem("MPI collectives", int(AlignMode::Mpi));
    mode_->addItem("Wall clock", int(AlignMode::Clock));
    mode_->addItem("None", int(AlignMode::None));
    mode_->setToolTip(
        "How the reports are placed on one timeline: matched NCCL or MPI collectives end together, "
        "each session's start time (UTC), or each report's own zero. Automatic: NCCL when every rank has "
        "NCCL collectives, else MPI when every rank has MPI ones, else the clock");
    nudgeRank_ = new QComboBox;
    nudgeRank_->setToolTip("The rank to move by hand");
    nudge_ = new QDoubleSpinBox;
    nudge_->setRange(-1e7, 1e7);
    nudge_->setDecimals(1);
    nudge_->setSingleStep(10);
    nudge_->setSuffix(" µs");
    nudge_->setToolTip("Moves the chosen rank on the timeline, on top of the alignment");
    skew_ = new QLabel;
    skew_->setToolTip(
        "What the alignment leaves: how far apart matched AllReduce (and other all-rank) collectives end");
    top->addWidget(new QLabel("Align by"));
    top->addWidget(mode_);
    top->addSpacing(12);
    top->addWidget(new QLabel("Nudge"));
    top->addWidget(nudgeRank_);
    top->addWidget(nudge_);
    top->addSpacing(12);
    top->addWidget(skew_, 1);
    layout->addLayout(top);
    source_ = new QLabel;
    source_->setWordWrap(true);
    source_->setVisible(false);
    layout->addWidget(source_);
    straggler_ = new QLabel;
    straggler_->setWordWrap(true);
    straggler_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(straggler_);

    ranks_ = makeTable(rankColumns(),
                       "Per rank: steps (NVTX/annotation ranges named step N or ProfilerStep#N) and how many of them "
                       "are outliers (longer than the step's median over the ranks + 3σ), GPU time shares over "
                       "each GPU's active window, time waiting inside collectives, time others waited for it, and "
                       "time inside MPI point-to-point calls (MPI_Send, MPI_Recv, MPI_Sendrecv, waits). Click a "
                       "header to sort (the heat map follows), a rank to show its rows on the timeline; of a rank "
                       "summary, double-click (or right-click) a rank to open its full report");
    ranks_->setObjectName("rankTable");
    ranks_->horizontalHeader()->setSortIndicator(0, Qt::AscendingOrder);
    ranks_->setSortingEnabled(true);
    collectives_ = makeTable({"Collective", "#", "Ranks", "Last to arrive", "Max wait (ms)"},
                             "NCCL or MPI collectives matched across ranks; click one to show it on every rank");
    collectives_->setObjectName("collectiveTable");
    auto* tables = new QSplitter(Qt::Vertical);
    tables->addWidget(ranks_);
    tables->addWidget(collectives_);
    shares_ = makeChart("GPU time per rank");
    waits_ = makeChart("Waiting in collectives (ms)");
    charts_ = new QSplitter(Qt::Horizontal);
    for (QChart* chart : {shares_, waits_}) {
        auto* view = new QChartView(chart);
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumSize(240, 100);
        charts_->addWidget(view);
    }
    heatMap_ = new RankHeatMap;
    heatMeasure_ = new QComboBox;
    heatMeasure_->addItem("Step time");
    heatMeasure_->addItem("Waited in collectives");
    heatMeasure_->setToolTip(
        "What a cell's colour says: the step's duration on that rank, or how long the rank "
        "waited inside matched collectives during the step");
    heatOrder_ = new QComboBox;
    heatOrder_->addItems(rankColumns());
    heatOrder_->setToolTip("The order of the ranks, top to bottom (as the ranks table's; longest first)");
    heatNote_ = new QLabel;
    heatNote_->setToolTip(
        "Outliers: cells beyond their step's median over the ranks by more than 3 robust standard deviations "
        "(σ = 1.4826 × the median absolute deviation) and by more than 1% of the step's median time");
    auto* heatBar = new QHBoxLayout;
    heatBar->setContentsMargins(0, 0, 0, 0);
    heatBar->addWidget(new QLabel("<b>Ranks × steps</b>"));
    heatBar->addWidget(heatMeasure_);
    heatBar->addSpacing(8);
    heatBar->addWidget(new QLabel("Order"));
    heatBar->addWidget(heatOrder_);
    heatBar->addSpacing(8);
    heatBar->addWidget(heatNote_, 1);
    auto* heatBox = new QWidget;
    auto* heatLayout = new QVBoxLayout(heatBox);
    heatLayout->setContentsMargins(0, 0, 0, 0);
    heatLayout->setSpacing(2);
    heatLayout->addLayout(heatBar);
    heatLayout->addWidget(heatMap_, 1);
    right_ = new QSplitter(Qt::Vertical);
    right_->addWidget(heatBox);
    right_->addWidget(charts_);
    right_->setStretchFactor(0, 3);
    right_->setStretchFactor(1, 2);
    tables->setStretchFactor(0, 3);
    tables->setStretchFactor(1, 2);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(tables);
    split->addWidget(right_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({600, 600});
    layout->addWidget(split, 1);

    connect(mode_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(nudgeRank_, &QComboBox::currentIndexChanged, this, [this](int rank) {
        const QSignalBlocker block(nudge_);
        nudge_->setValue(rank >= 0 && size_t(rank) < nudges_.size() ? double(nudges_[size_t(rank)]) / 1e3 : 0.0);
    });
    connect(nudge_, &QDoubleSpinBox::valueChanged, this,
            [this](double us) { setNudge(nudgeRank_->currentIndex(), static_cast<int64_t>(us * 1e3)); });
    connect(collectives_, &QTableWidget::cellClicked, this, [this](int row, int) { activateCollective(row); });
    connect(ranks_->model(), &QAbstractItemModel::layoutChanged, this, &ComparePanel::followRankOrder);
    connect(ranks_, &QTableWidget::cellClicked, this, [this](int row, int) {
        if (const QTableWidgetItem* item = ranks_->item(row, 0))
            if (const int report = timelineOf(item->data(kReportRole).toInt()); report >= 0)
                session_->revealReport(report);
    });
    connect(ranks_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        if (const QTableWidgetItem* item = ranks_->item(row, 0); item && fromSummaries())
            openRankReport(item->data(kReportRole).toInt());
    });
    ranks_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(ranks_, &QWidget::customContextMenuRequested, this, &ComparePanel::showRankMenu);
    connect(heatMap_, &RankHeatMap::cellClicked, this, &ComparePanel::showStep);
    connect(heatMeasure_, &QComboBox::currentIndexChanged, this, [this](int index) {
        heatMap_->setMeasure(index == 1 ? RankHeatMap::Measure::Wait : RankHeatMap::Measure::StepTime);
        describeOutliers();
    });
    connect(heatOrder_, &QComboBox::activated, this,
            [this](int column) { sortRanks(column, column == 0 ? Qt::AscendingOrder : Qt::DescendingOrder); });
    connect(session_, &ViewSession::reportsChanged, this, [this] { setReports(session_->reports()); });
}

void ComparePanel::setReports(std::vector<std::shared_ptr<const Report>> reports) {
    reports_ = std::move(reports);
    if (fromSummaries()) {  // a rank's report opened (or closed): on the timeline only, where its rank is
        mapTimelines();
        applyOffsets();
        if (!reports_.empty()) session_->fitAll();  // as opening does, offsets applied
        showSource();
        return;
    }
    nudges_.resize(reports_.size(), 0);
    setRankLabels();
    recompute();
}

void ComparePanel::setRankLabels() {
    const QSignalBlocker block(nudgeRank_);
    nudgeRank_->clear();
    if (fromSummaries())
        for (const RankInput& in : summaries_->inputs) nudgeRank_->addItem(qs(in.label));
    else
        for (const auto& r : reports_) nudgeRank_->addItem(qs(rankLabel(*r)));
}

void ComparePanel::addSummaries(SummarySet set) {
    if (set.inputs.empty()) return;
    if (!fromSummaries()) nudges_.clear();  // they were the reports'
    auto all = std::make_shared<SummarySet>(summaries_ ? *summaries_ : SummarySet{});
    for (size_t i = 0; i < set.size(); ++i) {
        if (all->dirs.contains(set.dirs[qsizetype(i)])) continue;
        all->inputs.push_back(std::move(set.inputs[i]));
        all->dirs << set.dirs[qsizetype(i)];
        all->reports << set.reports[qsizetype(i)];
        nudges_.push_back(0);
    }
    summaries_ = std::move(all);
    setRankLabels();
    mapTimelines();
    showSource();
    recompute();
}

void ComparePanel::closeSummaries() {
    if (!summaries_) return;
    summaries_.reset();
    timelines_.clear();
    nudges_.assign(reports_.size(), 0);
    heatMap_->setTimelines({});
    source_->setVisible(false);
    setReports(session_->reports());
}

void ComparePanel::mapTimelines() {
    timelines_.assign(summaries_ ? summaries_->size() : 0, -1);
    if (!fromSummaries()) return;
    QHash<QString, int> open;  // canonical path -> session index
    for (size_t r = 0; r < reports_.size(); ++r)
        if (const QString path = QFileInfo(qs(reports_[r]->meta.source_path)).canonicalFilePath(); !path.isEmpty())
            open.insert(path, int(r));
    for (size_t i = 0; i < timelines_.size(); ++i)
        if (const QString& path = summaries_->reports[qsizetype(i)]; !path.isEmpty())
            timelines_[i] = open.value(path, -1);
}

int ComparePanel::timelineOf(int rank) const {
    if (rank < 0) return -1;
    if (fromSummaries()) return size_t(rank) < timelines_.size() ? timelines_[size_t(rank)] : -1;
    return size_t(rank) < reports_.size() ? rank : -1;
}

void ComparePanel::applyOffsets() {
    const std::vector<int64_t>& aligned = comparison_.alignment.offsets_ns;
    if (!fromSummaries()) {
        session_->setOffsets(aligned);
        return;
    }
    std::vector<int64_t> offsets(reports_.size(), 0);  // reports of no summary stay where they are
    for (size_t i = 0; i < timelines_.size() && i < aligned.size(); ++i)
        if (timelines_[i] >= 0) offsets[size_t(timelines_[i])] = aligned[i];
    session_->setOffsets(offsets);
}

QString ComparePanel::sourceText() const {
    if (!fromSummaries()) return {};
    const SummarySet& set = *summaries_;
    const auto found = set.reports.size() - set.reports.count(QString());
    const auto open = std::count_if(timelines_.begin(), timelines_.end(), [](int r) { return r >= 0; });
    QString text = QString("From %1 rank summaries: open a rank's report to see its timeline (double-click its row). ")
                       .arg(set.size());
    text += found == qsizetype(set.size()) ? QString("Every report is on this machine")
            : found == 0                   ? QString("No report is on this machine")
                         : QString("%1 of the %2 reports are on this machine").arg(found).arg(set.size());
    if (open > 0) text += QString("; %1 open on the timeline, aligned as here").arg(open);
    return text + ".";
}

void ComparePanel::showSource() {
    source_->setVisible(fromSummaries());
    source_->setText(sourceText());
    std::vector<uint8_t> shown;
    if (fromSummaries())
        for (int r : timelines_) shown.push_back(r >= 0);
    heatMap_->setTimelines(std::move(shown));
}

bool ComparePanel::openRankReport(int rank) {
    if (!fromSummaries() || rank < 0 || size_t(rank) >= summaries_->size()) return false;
    if (const int report = timelineOf(rank); report >= 0) {
        session_->revealReport(report);
        return true;
    }
    const RankInput& in = summaries_->inputs[size_t(rank)];
    const QString path = summaries_->reports[rank];
    if (path.isEmpty()) {
        source_->setText(sourceText() + QString(" <b>%1</b>: its report %2 is not on this machine.")
                                            .arg(qs(in.label).toHtmlEscaped(), qs(in.source_path).toHtmlEscaped()));
        return false;
    }
    emit openReportRequested(path);
    return true;
}

void ComparePanel::showRankMenu(QPoint pos) {
    const QTableWidgetItem* item = ranks_->itemAt(pos);
    if (!item || !fromSummaries()) return;
    const int rank = ranks_->item(item->row(), 0)->data(kReportRole).toInt();
    if (rank < 0 || size_t(rank) >= summaries_->size()) return;
    const QString label = qs(summaries_->inputs[size_t(rank)].label);
    QMenu menu;
    if (timelineOf(rank) >= 0)
        menu.addAction(QString("Show %1 on the timeline").arg(label), this, [this, rank] { openRankReport(rank); });
    else if (const QString path = summaries_->reports[rank]; !path.isEmpty())
        menu.addAction(QString("Open the full report of %1").arg(label), this, [this, rank] { openRankReport(rank); })
            ->setStatusTip(path);
    else
        menu.addAction(QString("%1: its report %2 is not on this machine")
                           .arg(label, qs(summaries_->inputs[size_t(rank)].source_path)))
            ->setEnabled(false);
    menu.addAction(QString("Summary folder: %1").arg(summaries_->dirs[rank]))->setEnabled(false);
    menu.exec(ranks_->viewport()->mapToGlobal(pos));
}

void ComparePanel::setMode(AlignMode mode) { mode_->setCurrentIndex(mode_->findData(int(mode))); }

AlignMode ComparePanel::mode() const { return AlignMode(mode_->currentData().toInt()); }

void ComparePanel::setNudge(int report, int64_t nudge) {
    if (report < 0 || size_t(report) >= nudges_.size() || nudges_[size_t(report)] == nudge) return;
    nudges_[size_t(report)] = nudge;
    recompute();
}

void ComparePanel::recompute() {
    auto reports = reports_;
    const std::shared_ptr<const SummarySet> summaries = fromSummaries() ? summaries_ : nullptr;
    const auto nudges = nudges_;
    const auto mode = static_cast<AlignMode>(mode_->currentData().toInt());
    if (inputCount() < 2) {
        task_.cancel();
        running_ = again_ = false;
        Compared lone;
        lone.comparison.alignment.offsets_ns = nudges;  // a lone report is where the user put it
        showComparison(std::move(lone));
        return;
    }
    skew_->setText("Aligning…");
    // One run at a time: reports opened one by one as their imports end (64 ranks) would each
    // start a comparison of all so far; the inputs that came meanwhile are compared once it ends.
    if (running_) {
        again_ = true;
        return;
    }
    running_ = true;
    task_.run(
        [reports, summaries, nudges, mode] {
            Compared out;
            if (summaries) {
                out.comparison = compareRankInputs(summaries->inputs, mode, nudges);
            } else {
                std::vector<const Report*> raw;
                for (const auto& r : reports) raw.push_back(r.get());
                out.comparison = compareRanks(raw, mode, nudges);
            }
            out.grid = stepGrid(out.comparison);
            return out;
        },
        [this](Compared compared) {
            running_ = false;
            if (std::exchange(again_, false))
                recompute();
            else
                showComparison(std::move(compared));
        });
}

void ComparePanel::showComparison(Compared compared) {
    comparison_ = std::move(compared.comparison);
    std::vector<QString> labels;
    for (const RankMetrics& m : comparison_.ranks) labels.push_back(qs(m.label));
    heatMap_->setGrid(std::move(compared.grid), std::move(labels));
    showSource();
    fill();
    applyOffsets();
    emit alignmentChanged(session_->offsets());
    emit updated();
}

}  // namespace lanescope
