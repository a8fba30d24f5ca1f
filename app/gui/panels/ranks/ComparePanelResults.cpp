// The Ranks panel's results: the summary line, the ranks table, the heat map's outliers, the
// charts and the collectives (its construction and computation: ComparePanel.cpp).
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

#include "analysis/ranks/RankInput.h"
#include "app/gui/panels/ranks/ComparePanel.h"
#include "app/gui/panels/ranks/CompareWidgets.h"
#include "app/gui/panels/ranks/RankHeatMap.h"
#include "timeline/TimeFormat.h"

namespace lanescope {

using namespace compare_ui;

QString ComparePanel::stragglerText() const {
    const Straggler& s = comparison_.straggler;
    if (inputCount() < 2 && fromSummaries())
        return "One rank summary: open the summaries of the other ranks of its job (File > Open rank summaries) to "
               "compare them.";
    if (inputCount() == 1 && !fromSummaries() && reports_.front()) {
        // A job recorded whole (nsys profile torchrun ...): the command line compares its ranks.
        if (const size_t ranks = rankProcesses(*reports_.front()).size(); ranks >= 2)
            return QString(
                       "This report holds %1 ranks (processes with GPU work of their own): <code>lanescope-cli "
                       "compare %2</code> compares them; here, open the reports of several ranks.")
                .arg(ranks)
                .arg(qs(reports_.front()->meta.fileName()).toHtmlEscaped());
    }
    if (inputCount() < 2)
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
    QString skew = worst >= 0          ? QString("Skew left: at most %1").arg(qs(formatDuration(worst)))
                   : inputCount() >= 2 ? QString("No matched collectives to measure skew")
                                       : QString();
    if (inputCount() >= 2)
        skew = QString("Aligned by %1 · ").arg(alignModeName(a.mode)) + skew +
               (c.collectives_from == "mpi" ? "  ·  matching MPI collectives" : "");
    for (const auto& n : a.notes) skew += "  ·  " + qs(n);
    skew_->setText(skew);

    fillRanks();

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
    describeOutliers();
    // Bars of many ranks are unreadable: the heat map and the ranks table (sortable) say it then.
    // Of a few, the heat map takes what its rows need and the charts the rest (once per count).
    const bool charts = c.ranks.size() <= kChartRanksMax;
    charts_->setVisible(charts);
    if (charts && c.ranks.size() != chartedRanks_) {
        const int heat = int(c.ranks.size()) * kFewRanksRowPx + kHeatMapFramePx;
        right_->setSizes({heat, std::max(heat, right_->height() - heat)});
    }
    chartedRanks_ = charts ? c.ranks.size() : 0;
    fillCharts();
}

void ComparePanel::fillRanks() {
    const RankComparison& c = comparison_;
    const StepGrid& grid = heatMap_->grid();
    ranks_->setSortingEnabled(false);  // rows stay where they are put while filling
    ranks_->setRowCount(int(c.ranks.size()));
    for (size_t i = 0; i < c.ranks.size(); ++i) {
        const RankMetrics& m = c.ranks[i];
        const GpuShares& g = m.shares;
        int slowSteps = 0;
        for (size_t col = 0; col < grid.steps.size() && i < grid.ranks; ++col)
            slowSteps += grid.step_outlier[grid.at(i, col)];
        const double stepMean = m.step_ns.count ? m.step_ns.mean : -1;
        const std::vector<std::pair<QString, double>> cells{
            {qs(m.label), m.rank >= 0 ? m.rank : double(i)},
            {ms(m.offset_ns), double(m.offset_ns)},
            {QString::number(m.step_ns.count), double(m.step_ns.count)},
            {m.step_ns.count ? ms(int64_t(stepMean)) : "–", stepMean},
            {QString::number(slowSteps), slowSteps},
            {pct(g.share(g.compute_ns)), g.share(g.compute_ns)},
            {pct(g.share(g.communication_ns)), g.share(g.communication_ns)},
            {pct(g.share(g.idle_ns)), g.share(g.idle_ns)},
            {pct(g.hiddenCommunication()), g.hiddenCommunication()},
            {ms(m.wait_ns), double(m.wait_ns)},
            {ms(m.caused_wait_ns), double(m.caused_wait_ns)},
            {QString::number(m.times_last), m.times_last},
            {ms(m.point_to_point_ns), double(m.point_to_point_ns)}};
        for (size_t col = 0; col < cells.size(); ++col) {
            auto* item = new SortCell(cells[col].first, cells[col].second, col > 0);
            if (int(i) == c.straggler.report) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
            if (col == 0) item->setData(kReportRole, int(i));
            ranks_->setItem(int(i), int(col), item);
        }
    }
    ranks_->setSortingEnabled(true);  // sorts by the header's indicator, the order the user chose
    ranks_->resizeColumnsToContents();
    followRankOrder();
}

void ComparePanel::sortRanks(int column, Qt::SortOrder order) { ranks_->sortItems(column, order); }

void ComparePanel::followRankOrder() {
    std::vector<int> order;
    for (int row = 0; row < ranks_->rowCount(); ++row)
        if (const QTableWidgetItem* item = ranks_->item(row, 0)) order.push_back(item->data(kReportRole).toInt());
    heatMap_->setOrder(std::move(order));
    const QSignalBlocker block(heatOrder_);
    heatOrder_->setCurrentIndex(ranks_->horizontalHeader()->sortIndicatorSection());
}

void ComparePanel::setHeatMeasure(bool waits) { heatMeasure_->setCurrentIndex(waits ? 1 : 0); }

void ComparePanel::describeOutliers() {
    const StepGrid& grid = heatMap_->grid();
    const bool waits = heatMap_->measure() == RankHeatMap::Measure::Wait;
    const std::vector<uint8_t>& outlier = waits ? grid.wait_outlier : grid.step_outlier;
    size_t cells = 0, ranks = 0, worst = 0;
    int worstRank = -1;
    for (size_t r = 0; r < grid.ranks; ++r) {
        size_t n = 0;
        for (size_t col = 0; col < grid.steps.size(); ++col) n += outlier[grid.at(r, col)];
        cells += n;
        ranks += n > 0;
        if (n > worst) worst = n, worstRank = int(r);
    }
    if (grid.steps.empty())
        heatNote_->clear();
    else if (cells == 0)
        heatNote_->setText(QString("%1 ranks × %2 steps · no outliers").arg(grid.ranks).arg(grid.steps.size()));
    else
        heatNote_->setText(QString("%1 ranks × %2 steps · %3 outlier cells on %4 ranks, most on %5 (%6 steps)")
                               .arg(grid.ranks)
                               .arg(grid.steps.size())
                               .arg(cells)
                               .arg(ranks)
                               .arg(qs(comparison_.ranks[size_t(worstRank)].label))
                               .arg(worst));
}

void ComparePanel::showStep(int rank, int column) {
    const StepGrid& grid = heatMap_->grid();
    const int report = timelineOf(rank);
    if (rank < 0 || size_t(rank) >= grid.ranks || report < 0 || size_t(report) >= session_->reports().size() ||
        column < 0 || size_t(column) >= grid.steps.size())
        return;  // a summary whose report is not open: no timeline to show it on
    const int32_t index = grid.step_index[grid.at(size_t(rank), size_t(column))];
    if (index < 0) return;
    const StepRange& step = comparison_.ranks[size_t(rank)].steps[size_t(index)];
    const int64_t begin = step.start_ns + session_->offset(report), end = step.end_ns + session_->offset(report);
    const int64_t margin = std::max<int64_t>((end - begin) / 20, 1000);
    session_->revealReport(report);
    session_->zoomTo(begin - margin, end + margin);
    session_->setSelectedRange(std::make_pair(begin, end));
    if (holds(*session_->reports()[size_t(report)], step.range))
        session_->selectEvent(ViewEvent{report, step.range.lane, step.range.index});
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
    bool shown = false;  // some rank that ran it is on the timeline
    for (size_t i = 0; i < mc.arrival_ns.size(); ++i) {
        if (mc.arrival_ns[i] == kMissing) continue;
        shown = shown || timelineOf(int(i)) >= 0;
        begin = std::min(begin, mc.arrival_ns[i]);
        end = std::max(end, mc.end_ns[i]);
    }
    if (end == kMissing || !shown) return;
    const int64_t margin = std::max<int64_t>((end - begin) / 4, 2000);
    session_->zoomTo(begin - margin, end + margin);
    session_->setSelectedRange(std::make_pair(begin, end));
    if (const int report = timelineOf(mc.last); report >= 0) {
        const EventRef k = mc.kernels[size_t(mc.last)];
        if (holds(*session_->reports()[size_t(report)], k)) session_->selectEvent(ViewEvent{report, k.lane, k.index});
    }
}

}  // namespace lanescope
