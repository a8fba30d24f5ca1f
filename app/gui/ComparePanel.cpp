#include "app/gui/ComparePanel.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QHorizontalPercentBarSeries>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <limits>

#include "timeline/TimeFormat.h"

namespace lanescope {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }
QString ms(int64_t ns) { return QString::number(double(ns) / 1e6, 'f', 3); }
QString pct(double share) { return QString::number(share * 100, 'f', 1); }

QTableWidgetItem* cell(const QString& text, bool number) {
    auto* item = new QTableWidgetItem(text);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QTableWidget* makeTable(const QStringList& header, const QString& tip) {
    auto* t = new QTableWidget(0, int(header.size()));
    t->setHorizontalHeaderLabels(header);
    t->verticalHeader()->hide();
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setAlternatingRowColors(true);
    t->setToolTip(tip);
    return t;
}

QChart* makeChart(const QString& title) {
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(0, 0, 0, 0));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    QFont font = chart->titleFont();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    chart->setTitleFont(font);
    return chart;
}

void clear(QChart* chart) {
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

}  // namespace

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
    straggler_ = new QLabel;
    straggler_->setWordWrap(true);
    straggler_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(straggler_);

    ranks_ = makeTable({"Rank", "Offset (ms)", "Steps", "Step avg (ms)", "Compute %", "Comm %", "Idle %",
                        "Comm hidden %", "Waited (ms)", "Made others wait (ms)", "Last", "MPI P2P (ms)"},
                       "Per rank: steps (NVTX/annotation ranges named step N or ProfilerStep#N), GPU time shares "
                       "over each GPU's active window, time waiting inside collectives, time others waited for it, "
                       "and time inside MPI point-to-point calls (MPI_Send, MPI_Recv, MPI_Sendrecv, waits)");
    collectives_ = makeTable({"Collective", "#", "Ranks", "Last to arrive", "Max wait (ms)"},
                             "NCCL or MPI collectives matched across ranks; click one to show it on every rank");
    auto* tables = new QSplitter(Qt::Vertical);
    tables->addWidget(ranks_);
    tables->addWidget(collectives_);
    shares_ = makeChart("GPU time per rank");
    waits_ = makeChart("Waiting in collectives (ms)");
    auto* charts = new QSplitter(Qt::Horizontal);
    for (QChart* chart : {shares_, waits_}) {
        auto* view = new QChartView(chart);
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumSize(260, 160);
        charts->addWidget(view);
    }
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(tables);
    split->addWidget(charts);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({640, 560});
    layout->addWidget(split, 1);

    connect(mode_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(nudgeRank_, &QComboBox::currentIndexChanged, this, [this](int rank) {
        const QSignalBlocker block(nudge_);
        nudge_->setValue(rank >= 0 && size_t(rank) < nudges_.size() ? double(nudges_[size_t(rank)]) / 1e3 : 0.0);
    });
    connect(nudge_, &QDoubleSpinBox::valueChanged, this,
            [this](double us) { setNudge(nudgeRank_->currentIndex(), static_cast<int64_t>(us * 1e3)); });
    connect(collectives_, &QTableWidget::cellClicked, this, [this](int row, int) { activateCollective(row); });
    connect(session_, &ViewSession::reportsChanged, this, [this] { setReports(session_->reports()); });
}

void ComparePanel::setReports(std::vector<std::shared_ptr<const Report>> reports) {
    reports_ = std::move(reports);
    nudges_.resize(reports_.size(), 0);
    const QSignalBlocker block(nudgeRank_);
    nudgeRank_->clear();
    for (const auto& r : reports_) nudgeRank_->addItem(qs(rankLabel(*r)));
    recompute();
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
    const auto nudges = nudges_;
    const auto mode = static_cast<AlignMode>(mode_->currentData().toInt());
    if (reports.size() < 2) {
        task_.cancel();
        RankComparison lone;
        lone.alignment.offsets_ns = nudges;  // a lone report is where the user put it
        showComparison(std::move(lone));
        return;
    }
    skew_->setText("Aligning…");
    task_.run(
        [reports, nudges, mode] {
            std::vector<const Report*> raw;
            for (const auto& r : reports) raw.push_back(r.get());
            return compareRanks(raw, mode, nudges);
        },
        [this](RankComparison comparison) { showComparison(std::move(comparison)); });
}

void ComparePanel::showComparison(RankComparison comparison) {
    comparison_ = std::move(comparison);
    fill();
    session_->setOffsets(comparison_.alignment.offsets_ns);
    emit alignmentChanged(comparison_.alignment.offsets_ns);
    emit updated();
}

QString ComparePanel::stragglerText() const {
    const Straggler& s = comparison_.straggler;
    if (reports_.size() < 2)
        return "Open the reports of several ranks of one job (select them all in File > Open, or drop them) to compare "
               "them.";
    if (s.report < 0)
        return "No straggler: no rank waited on another in matched collectives, and no rank's steps are longer.";
    const QString who = "<b>Straggler: " + qs(comparison_.ranks[size_t(s.report)].label).toHtmlEscaped() + "</b> — ";
    if (s.basis == "steps")
        return who +
               QString(
                   "the longest mean step, %1 ms more than the next rank (no matched collectives to measure waits).")
                   .arg(ms(s.excess_ns));
    return who + QString(
                     "last to arrive in %1 of %2 matched collectives; the others waited %3 ms for it, %4 ms more "
                     "than for any other rank.")
                     .arg(s.times_last)
                     .arg(s.collectives)
                     .arg(ms(s.caused_wait_ns), ms(s.excess_ns));
}

void ComparePanel::fill() {
    const RankComparison& c = comparison_;
    const RankAlignment& a = c.alignment;
    straggler_->setText(stragglerText());
    int64_t worst = -1;
    for (int64_t v : a.residual_max_ns) worst = std::max(worst, v);
    QString skew = worst >= 0             ? QString("Skew left: at most %1").arg(qs(formatDuration(worst)))
                   : reports_.size() >= 2 ? QString("No matched collectives to measure skew")
                                          : QString();
    if (reports_.size() >= 2)
        skew = QString("Aligned by %1 · ").arg(alignModeName(a.mode)) + skew +
               (c.collectives_from == "mpi" ? "  ·  matching MPI collectives" : "");
    for (const auto& n : a.notes) skew += "  ·  " + qs(n);
    skew_->setText(skew);

    ranks_->setRowCount(int(c.ranks.size()));
    for (size_t i = 0; i < c.ranks.size(); ++i) {
        const RankMetrics& m = c.ranks[i];
        const GpuShares& g = m.shares;
        const QStringList cells{qs(m.label),
                                ms(m.offset_ns),
                                QString::number(m.step_ns.count),
                                m.step_ns.count ? ms(int64_t(m.step_ns.mean)) : "–",
                                pct(g.share(g.compute_ns)),
                                pct(g.share(g.communication_ns)),
                                pct(g.share(g.idle_ns)),
                                pct(g.hiddenCommunication()),
                                ms(m.wait_ns),
                                ms(m.caused_wait_ns),
                                QString::number(m.times_last),
                                ms(m.point_to_point_ns)};
        for (int col = 0; col < cells.size(); ++col) ranks_->setItem(int(i), col, cell(cells[col], col > 0));
        if (int(i) == c.straggler.report)
            for (int col = 0; col < cells.size(); ++col) {
                QFont bold = ranks_->item(int(i), col)->font();
                bold.setBold(true);
                ranks_->item(int(i), col)->setFont(bold);
            }
    }
    ranks_->resizeColumnsToContents();

    collectives_->setColumnCount(5 + int(c.ranks.size()));
    QStringList header{"Collective", "#", "Ranks", "Last to arrive", "Max wait (ms)"};
    for (const RankMetrics& m : c.ranks) header << QString("%1 wait (ms)").arg(qs(m.label));
    collectives_->setHorizontalHeaderLabels(header);
    collectives_->setRowCount(int(c.collectives.size()));
    for (size_t r = 0; r < c.collectives.size(); ++r) {
        const MatchedCollective& mc = c.collectives[r];
        int64_t maxWait = 0;
        for (int64_t w : mc.wait_ns) maxWait = std::max(maxWait, w);
        collectives_->setItem(int(r), 0, cell(qs(mc.kind), false));
        collectives_->setItem(int(r), 1, cell(QString::number(mc.ordinal), true));
        collectives_->setItem(int(r), 2, cell(QString::number(mc.present), true));
        collectives_->setItem(int(r), 3,
                              cell(mc.present >= 2 && mc.last >= 0 ? qs(c.ranks[size_t(mc.last)].label) : "–", false));
        collectives_->setItem(int(r), 4, cell(ms(maxWait), true));
        for (size_t i = 0; i < c.ranks.size(); ++i)
            collectives_->setItem(
                int(r), 5 + int(i),
                cell(mc.arrival_ns[i] == std::numeric_limits<int64_t>::min() ? "–" : ms(mc.wait_ns[i]), true));
    }
    collectives_->resizeColumnsToContents();
    fillCharts();
}

void ComparePanel::fillCharts() {
    const RankComparison& c = comparison_;
    clear(shares_);
    clear(waits_);
    if (c.ranks.empty()) return;
    QStringList labels;
    auto* computeOnly = new QBarSet("compute");
    auto* overlap = new QBarSet("compute + comm");
    auto* commOnly = new QBarSet("communication");
    auto* idle = new QBarSet("idle");
    auto* waited = new QBarSet("waited");
    auto* caused = new QBarSet("made others wait");
    computeOnly->setColor(QColor(0x2E86C1));
    overlap->setColor(QColor(0x8E44AD));
    commOnly->setColor(QColor(0xD68910));
    idle->setColor(QColor(0xBDC3C7));
    waited->setColor(QColor(0xD68910));
    caused->setColor(QColor(0xC0392B));
    double maxWait = 0;
    for (const RankMetrics& m : c.ranks) {
        const GpuShares& g = m.shares;
        labels << qs(m.label);
        *computeOnly << 100 * g.share(g.compute_ns - g.overlap_ns);
        *overlap << 100 * g.share(g.overlap_ns);
        *commOnly << 100 * g.share(g.communication_ns - g.overlap_ns);
        *idle << 100 * g.share(g.idle_ns);
        *waited << double(m.wait_ns) / 1e6;
        *caused << double(m.caused_wait_ns) / 1e6;
        maxWait = std::max({maxWait, double(m.wait_ns) / 1e6, double(m.caused_wait_ns) / 1e6});
    }
    auto* shareSeries = new QHorizontalPercentBarSeries;
    shareSeries->append({computeOnly, overlap, commOnly, idle});
    auto* waitSeries = new QHorizontalBarSeries;
    waitSeries->append({waited, caused});
    for (auto [chart, series, max] : {std::tuple<QChart*, QAbstractBarSeries*, double>{shares_, shareSeries, 100.0},
                                      {waits_, waitSeries, std::max(maxWait * 1.1, 0.001)}}) {
        chart->addSeries(series);
        auto* y = new QBarCategoryAxis;
        y->append(labels);
        auto* x = new QValueAxis;
        x->setRange(0, max);
        x->setLabelFormat(chart == shares_ ? "%.0f%%" : "%.1f");
        x->setTickCount(chart == shares_ ? 5 : 4);
        chart->addAxis(y, Qt::AlignLeft);
        chart->addAxis(x, Qt::AlignBottom);
        series->attachAxis(y);
        series->attachAxis(x);
    }
}

void ComparePanel::activateCollective(int row) {
    if (row < 0 || size_t(row) >= comparison_.collectives.size()) return;
    const MatchedCollective& mc = comparison_.collectives[size_t(row)];
    constexpr int64_t kMissing = std::numeric_limits<int64_t>::min();
    int64_t begin = std::numeric_limits<int64_t>::max(), end = kMissing;
    for (size_t i = 0; i < mc.arrival_ns.size(); ++i) {
        if (mc.arrival_ns[i] == kMissing) continue;
        begin = std::min(begin, mc.arrival_ns[i]);
        end = std::max(end, mc.end_ns[i]);
    }
    if (end == kMissing) return;
    const int64_t margin = std::max<int64_t>((end - begin) / 4, 2000);
    session_->zoomTo(begin - margin, end + margin);
    session_->setSelectedRange(std::make_pair(begin, end));
    if (mc.last >= 0) {
        const EventRef k = mc.kernels[size_t(mc.last)];
        session_->selectEvent(ViewEvent{mc.last, k.lane, k.index});
    }
}

}  // namespace lanescope
