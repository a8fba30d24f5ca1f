#include <QAction>
#include <QApplication>
#include <QChart>
#include <QDir>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QScatterSeries>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <ctime>
#include <string>
#include <vector>

#include "GuiTestMain.h"
#include "OpenAndWait.h"
#include "RaiseDock.h"
#include "TestPaths.h"
#include "analysis/communication/CollectiveInstances.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ViewSession.h"
#include "app/gui/panels/communication/BusbwColouring.h"
#include "app/gui/panels/communication/CollectiveTableModel.h"
#include "app/gui/panels/communication/CommunicationPanel.h"
#include "app/gui/panels/events/EventsPanel.h"
#include "app/gui/panels/ranks/ComparePanel.h"
#include "tests/support/NcclJob.h"
#include "timeline/QtText.h"
#include "timeline/TimeFormat.h"

using namespace lanescope;

// The Communication panel in the real window, offscreen. On the hand-cut trace of
// tests/data/communication (its README works out each number): the summary table's cells, the
// scatter's two points, a click on a collective, a point or a summary row selecting its kernel,
// Details of an NCCL kernel, the busbw colours. On the corpus's two DDP ranks: the per-rank table against the
// analysis, a rank 1 row selecting rank 1's kernel; the window grabbed into
// LANESCOPE_SCREENSHOT_DIR as communication_panel.png when that is set. On a report without
// sizes: the message in place of the scatter.
class CommunicationPanelTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;
    CommunicationPanel* panel_ = nullptr;
    ViewSession* session_ = nullptr;

    bool open(const std::vector<std::string>& relatives) {
        session_->closeAll();
        const bool loaded = openAndWait(*window_, relatives);
        raiseDockOf(panel_);  // several ranks bring the Ranks panel to the front
        return loaded;
    }
    bool computed() {
        return QTest::qWaitFor([&] { return !panel_->busy() && panel_->currentAnalysis(); }, 20000);
    }
    static QString text(QTableWidget* table, int row, int column) {
        const QTableWidgetItem* item = table->item(row, column);
        return item ? item->text() : QString();
    }
    QString details() const { return window_->findChild<QTextBrowser*>()->toPlainText(); }
    std::string selectedName() const {
        const std::optional<ViewEvent> e = session_->selectedEvent();
        if (!e) return {};
        const Report& report = *session_->reports()[size_t(e->report)];
        return std::string(report.str(report.lanes[e->lane].events.name_id[e->event]));
    }
    // The collective of the analysis that is selected on the timeline; -1 when none is.
    int selectedRow() const {
        const std::optional<ViewEvent> e = session_->selectedEvent();
        const CollectiveRows& rows = panel_->analysis()->rows;
        for (size_t i = 0; e && i < rows.size(); ++i)
            if (int(rows.rank[i]) == e->report && rows.lane[i] == e->lane && rows.event[i] == e->event) return int(i);
        return -1;
    }

private slots:
    void initTestCase() {
        window_ = std::make_unique<MainWindow>();
        window_->resize(1600, 1000);
        window_->show();
        panel_ = window_->findChild<CommunicationPanel*>();
        QVERIFY(panel_);
        session_ = window_->session();
        QVERIFY(open({"communication/kernel_args.pt.trace.json"}));
        QVERIFY(computed());
    }

    // View > Communication is Ctrl+Shift+M.
    void theMenuShowsThePanel() {
        QAction* show = nullptr;
        for (QAction* a : window_->findChildren<QAction*>())
            if (a->shortcut() == QKeySequence("Ctrl+Shift+M")) show = a;
        QVERIFY(show);
        QCOMPARE(show->text(), QString("Co&mmunication"));
    }

    // The README's two collectives: AllGather 4 MiB in 100 µs, AllReduce 1 MiB in 50 µs, both
    // 20.972 GB/s busbw; a third of the communication overlaps the gemm.
    void theSummaryTable() {
        QTableWidget* t = panel_->summaryTable();
        QCOMPARE(t->rowCount(), 2);
        const QStringList allReduce = {
            "AllReduce", "1 MiB", "1", qs(formatDuration(50000)), qs(formatDuration(50000)), qs(formatDuration(50000)),
            "20.972"};
        const QStringList allGather = {"AllGather",
                                       "4 MiB",
                                       "1",
                                       qs(formatDuration(100000)),
                                       qs(formatDuration(100000)),
                                       qs(formatDuration(100000)),
                                       "20.972"};
        for (int c = 0; c < 7; ++c) {
            QCOMPARE(text(t, 0, c), allReduce[c]);
            QCOMPARE(text(t, 1, c), allGather[c]);
        }
        const QString summary = panel_->summary()->text();
        QVERIFY2(summary.startsWith("2 collectives, all with a size"), qPrintable(summary));
        QVERIFY2(summary.contains("33.3% of it overlapped with compute"), qPrintable(summary));
        QVERIFY(!panel_->notes()->isVisible());
        // One report: its overlap, no waits.
        QTableWidget* ranks = panel_->ranksTable();
        QCOMPARE(ranks->rowCount(), 1);
        QCOMPARE(text(ranks, 0, 2), qs(formatDuration(150000)));
        QCOMPARE(text(ranks, 0, 3), qs(formatDuration(50000)));
        QCOMPARE(text(ranks, 0, 4), QString("33.3%"));
        QVERIFY(ranks->isColumnHidden(5));
    }

    // One point per collective at (log2 size, busbw): x 22 and 20, y 4,194,304 / 100,000 / 2.
    void theScatterHasTwoPoints() {
        BusbwScatter* scatter = panel_->scatter();
        QVERIFY(!scatter->showsMessage());
        QCOMPARE(scatter->points().size(), size_t(2));
        QScatterSeries* gather = scatter->series(CollectiveOp::AllGather);
        QScatterSeries* reduce = scatter->series(CollectiveOp::AllReduce);
        QVERIFY(gather && reduce);
        QCOMPARE(gather->count(), 1);
        QCOMPARE(reduce->count(), 1);
        QCOMPARE(gather->at(0).x(), 22.0);
        QCOMPARE(reduce->at(0).x(), 20.0);
        QVERIFY(std::abs(gather->at(0).y() - 20.97152) < 1e-9);
        QVERIFY(std::abs(reduce->at(0).y() - 20.97152) < 1e-9);
        QCOMPARE(scatter->chart()->series().size(), 2);
    }

    // A click on a collective's row selects its kernel and shows it; so do a point and a summary row.
    void aClickSelectsTheKernel() {
        panel_->tabs()->setCurrentIndex(1);
        QTableView* view = panel_->collectivesView();
        QCOMPARE(view->model()->rowCount(), 2);
        QCOMPARE(view->model()->index(1, CollectiveTableModel::Operation).data().toString(), QString("AllReduce"));
        QCOMPARE(view->model()->index(1, CollectiveTableModel::BusBw).data().toString(), QString("20.972"));
        session_->fitAll();
        const QRect rect = view->visualRect(view->model()->index(1, CollectiveTableModel::Size));
        QVERIFY(rect.isValid());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(selectedRow(), 1);
        QVERIFY(selectedName().find("AllReduce") != std::string::npos);
        const CollectiveRows& rows = panel_->analysis()->rows;
        const auto [begin, end] = session_->visibleRange();
        QVERIFY(begin <= rows.start_ns[1] && end >= rows.start_ns[1] + rows.duration_ns[1]);
        QVERIFY(end - begin < 10 * rows.duration_ns[1]);
        // The point of the all-gather.
        emit panel_->scatter()->series(CollectiveOp::AllGather)->clicked(QPointF(22.0, rows.busbw_gbps[0]));
        QCOMPARE(selectedRow(), 0);
        QCOMPARE(view->currentIndex().row(), 0);  // the table follows the timeline's selection
        // The summary's AllReduce row: its only (so longest) collective.
        panel_->summaryTable()->cellClicked(0, 0);
        QCOMPARE(selectedRow(), 1);
        // Sorted by busbw, then by size descending: the rows move, the selection with them.
        view->sortByColumn(CollectiveTableModel::Size, Qt::DescendingOrder);
        QCOMPARE(view->model()->index(0, CollectiveTableModel::Operation).data().toString(), QString("AllGather"));
        QCOMPARE(view->currentIndex().row(), 1);
        panel_->tabs()->setCurrentIndex(0);
    }

    // Details of a selected NCCL kernel: its operation, size and bandwidths.
    void detailsOfAnNcclKernel() {
        panel_->activateRow(0);
        const QString text = details();
        QVERIFY2(text.contains("Operation\nAllGather"), qPrintable(text));
        QVERIFY2(text.contains("Size\n4 MiB (4,194,304 bytes)"), qPrintable(text));
        QVERIFY2(text.contains("AlgBW\n41.943 GB/s"), qPrintable(text));
        QVERIFY2(text.contains("BusBW\n20.972 GB/s"), qPrintable(text));
        // A compute kernel has none.
        const std::optional<ViewEvent> e = session_->selectedEvent();
        const Report& report = *session_->reports()[0];
        for (uint32_t l = 0; l < report.lanes.size(); ++l)
            for (uint32_t i = 0; i < report.lanes[l].events.size(); ++i)
                if (report.str(report.lanes[l].events.name_id[i]) == "gemm_kernel")
                    session_->selectEvent(ViewEvent{0, l, i});
        QVERIFY(session_->selectedEvent() != e);
        QVERIFY(!details().contains("BusBW"));
    }

    // View > Colour NCCL by bus bandwidth: the all-gather (both collectives have the same busbw: the
    // ramp's middle) drawn in the ramp's colour on its stream; off, in its own again.
    void colourByBusbw() {
        QAction* toggle = nullptr;
        for (QAction* a : window_->findChildren<QAction*>())
            if (a->text() == "Colour NCCL by &bus bandwidth") toggle = a;
        QVERIFY(toggle && toggle->isCheckable() && !toggle->isChecked());
        auto* colouring = window_->findChild<BusbwColouring*>();
        QVERIFY(colouring);
        TimelineView* timeline = session_->timeline();
        const CollectiveRows& rows = panel_->analysis()->rows;
        session_->selectEvent(std::nullopt);
        session_->zoomTo(rows.start_ns[0] - 20000, rows.start_ns[0] + rows.duration_ns[0] + 20000);
        const QRect rect = timeline->eventRect(ViewEvent{0, rows.lane[0], rows.event[0]});
        QVERIFY(!rect.isEmpty());
        auto pixel = [&] {
            const QImage image = timeline->grab().toImage();
            const qreal dpr = image.devicePixelRatio();
            return image.pixel(int((rect.left() + 3) * dpr), int((rect.top() + 2) * dpr)) | 0xFF000000u;
        };
        const QRgb own = pixel();
        toggle->setChecked(true);
        QVERIFY(QTest::qWaitFor([&] { return !colouring->busy() && colouring->range(); }, 20000));
        QCOMPARE(colouring->range()->first, rows.busbw_gbps[0]);
        QCOMPARE(colouring->range()->second, rows.busbw_gbps[1]);
        QCOMPARE(pixel(), lowToHighRamp(0.5));
        QVERIFY(own != lowToHighRamp(0.5));
        toggle->setChecked(false);
        QVERIFY(!colouring->range());
        QCOMPARE(pixel(), own);
    }

    // Two DDP ranks: a row per rank, its wait the sum of its rows' waits, the times last adding up
    // to the matched instances; a click on a rank 1 collective selects it in rank 1's report.
    void twoRanks() {
        QVERIFY(open({"kineto/ddp_rank0.pt.trace.json.gz", "kineto/ddp_rank1.pt.trace.json.gz"}));
        QVERIFY(computed());
        const CommunicationAnalysis& a = *panel_->analysis();
        QCOMPARE(a.ranks.size(), size_t(2));
        QTableWidget* ranks = panel_->ranksTable();
        QCOMPARE(ranks->rowCount(), 2);
        QVERIFY(!ranks->isColumnHidden(5));
        int64_t lastTotal = 0;
        for (int r = 0; r < 2; ++r) {
            int64_t waits = 0;
            for (size_t i = 0; i < a.rows.size(); ++i)
                if (a.rows.rank[i] == r && a.rows.wait_ns[i] > 0) waits += a.rows.wait_ns[i];
            QCOMPARE(a.ranks[size_t(r)].wait_ns, waits);
            QVERIFY(waits > 0);
            QCOMPARE(text(ranks, r, 5), qs(formatDuration(waits)));
            QCOMPARE(text(ranks, r, 6), QString::number(a.ranks[size_t(r)].times_last));
            lastTotal += a.ranks[size_t(r)].times_last;
        }
        QCOMPARE(lastTotal, int64_t(a.instances.size()));
        // The same as the command line's analysis of the two files.
        const CommunicationAnalysis direct =
            analyzeCommunication({session_->reports()[0].get(), session_->reports()[1].get()});
        QCOMPARE(direct.rows.wait_ns, a.rows.wait_ns);
        QCOMPARE(direct.most_often_last, a.most_often_last);
        QVERIFY(panel_->summary()->text().contains(
            QString("rank %1 last most often (%2 times)").arg(a.most_often_last).arg(a.ranks[0].times_last)));
        QCOMPARE(panel_->summaryTable()->rowCount(), 4);  // AllReduce in two buckets, Broadcast in two
        QCOMPARE(panel_->scatter()->points().size(), a.rows.size());
        // A rank 1 collective, from the table.
        size_t row = 0;
        while (row < a.rows.size() && a.rows.rank[row] != 1) ++row;
        QVERIFY(row < a.rows.size());
        panel_->tabs()->setCurrentIndex(1);
        QTableView* view = panel_->collectivesView();
        QVERIFY(!view->isColumnHidden(CollectiveTableModel::Wait));
        view->scrollTo(view->model()->index(int(row), 1));
        const QRect rect = view->visualRect(view->model()->index(int(row), CollectiveTableModel::Operation));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(session_->selectedEvent()->report, 1);
        QCOMPARE(selectedRow(), int(row));
        // With several ranks, Details names the wait too.
        QVERIFY2(details().contains("Wait for the last rank"), qPrintable(details()));
        panel_->tabs()->setCurrentIndex(0);
        // LANESCOPE_SCREENSHOT_DIR=DIR keeps a picture of the window, to look at as a user would.
        if (const QString dir = qEnvironmentVariable("LANESCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
            QTest::qWait(100);
            QVERIFY(window_->grab().save(QDir(dir).filePath("communication_panel.png")));
        }
    }

    // 64 ranks of 10,000 all-reduces each (640,000 collectives, lanescope-bench nccl's job), opened
    // while the panel is behind another tab: shown, it computes them off the GUI thread, which never
    // spends more than 100 ms of its CPU time at once between two ticks of a 5 ms timer while the
    // tables, the scatter and then the timeline's busbw colours are made. A sort of the 640,000
    // collectives by busbw takes well under a second.
    void manyRanksStayResponsive() {
        std::vector<std::shared_ptr<const Report>> reports;
        for (uint64_t r = 0; r < 64; ++r) {
            std::shared_ptr<test::TinyReport> rank = test::ncclRankReport(r, 64, 10000);
            reports.push_back(std::shared_ptr<const Report>(rank, &rank->r));
        }
        // Not measured: the window's own work on 64 new reports, the timeline's first frame and the
        // Ranks panel's comparison (computed behind its tab too).
        raiseDockOf(window_->findChild<EventsPanel*>());
        int painted = 0;
        const QMetaObject::Connection frames =
            connect(session_->timeline(), &TimelineView::framePainted, this, [&](int rows) { painted += rows > 0; });
        session_->setReports(reports);
        auto* ranks = window_->findChild<ComparePanel*>();
        QVERIFY(QTest::qWaitFor([&] { return window_->shownPanelsReady() && !ranks->busy() && painted > 0; }, 60000));
        disconnect(frames);
        QTest::qWait(50);
        QVERIFY(!panel_->currentAnalysis());
        auto threadCpuMs = [] {
            timespec t{};
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
            return double(t.tv_sec) * 1000.0 + double(t.tv_nsec) / 1e6;
        };
        double lastTick = threadCpuMs(), worst = 0;
        QTimer ticker;
        ticker.setInterval(5);
        connect(&ticker, &QTimer::timeout, [&] {
            const double now = threadCpuMs();
            worst = std::max(worst, now - lastTick);
            lastTick = now;
        });
        QElapsedTimer clock;
        clock.start();
        ticker.start();
        raiseDockOf(panel_);
        QVERIFY(QTest::qWaitFor([&] { return !panel_->busy() && panel_->currentAnalysis(); }, 60000));
        const qint64 shown = clock.elapsed();
        QCOMPARE(panel_->analysis()->rows.size(), size_t(640000));
        QCOMPARE(panel_->collectivesModel()->rowCount(), 640000);
        QCOMPARE(panel_->ranksTable()->rowCount(), 64);
        QCOMPARE(panel_->summaryTable()->rowCount(), 7);  // 1 to 64 MiB
        QVERIFY(panel_->scatter()->points().size() < size_t(ScatterPoints::kScatterAll));
        QAction* toggle = nullptr;
        for (QAction* a : window_->findChildren<QAction*>())
            if (a->text() == "Colour NCCL by &bus bandwidth") toggle = a;
        auto* colouring = window_->findChild<BusbwColouring*>();
        toggle->setChecked(true);
        QVERIFY(QTest::qWaitFor([&] { return !colouring->busy() && colouring->range(); }, 60000));
        QTest::qWait(100);  // the timeline painted in them
        ticker.stop();
        toggle->setChecked(false);
        qInfo("64 ranks x 10,000 collectives: shown after %lld ms; GUI thread at most %.1f ms of CPU between ticks",
              shown, worst);
        QVERIFY2(worst < 100, qPrintable(QString("GUI thread busy %1 ms at once").arg(worst)));
        QElapsedTimer sorting;
        sorting.start();
        panel_->collectivesView()->sortByColumn(CollectiveTableModel::BusBw, Qt::DescendingOrder);
        qInfo("sorted by busbw in %lld ms", sorting.elapsed());
        QVERIFY(sorting.elapsed() < 1000);
        const CollectiveRows& rows = panel_->analysis()->rows;
        QCOMPARE(rows.busbw_gbps[panel_->collectivesModel()->rowAt(0)],
                 *std::max_element(rows.busbw_gbps.begin(), rows.busbw_gbps.end()));
    }

    // An Nsight Systems report without NCCL payloads: no sizes, said in the notes and in place of
    // the scatter.
    void withoutSizesAMessage() {
        QVERIFY(open({"critical_path/two_ranks_late_rank0.sqlite"}));
        QVERIFY(computed());
        QCOMPARE(panel_->analysis()->rows.size(), size_t(1));
        QVERIFY(panel_->scatter()->showsMessage());
        QVERIFY2(panel_->scatter()->message().contains("no collective sizes"),
                 qPrintable(panel_->scatter()->message()));
        QVERIFY(panel_->notes()->isVisible());
        QVERIFY(panel_->notes()->text().contains("no collective sizes"));
        QVERIFY2(panel_->summary()->text().startsWith("1 collective, none with a size"),
                 qPrintable(panel_->summary()->text()));
        QCOMPARE(panel_->summaryTable()->rowCount(), 1);
        QCOMPARE(text(panel_->summaryTable(), 0, 1), QString("no size"));
        QCOMPARE(text(panel_->summaryTable(), 0, 6), QString());
        // Details say why the kernel has no size.
        panel_->activateRow(0);
        QVERIFY2(details().contains("Size\nnot recorded: the report holds no NVTX extended payloads"),
                 qPrintable(details()));
        QVERIFY(!details().contains("BusBW"));
        // Closed: nothing shown.
        session_->closeAll();
        QVERIFY(QTest::qWaitFor([&] { return !panel_->busy(); }, 20000));
        QVERIFY(!panel_->analysis());
        QCOMPARE(panel_->summary()->text(), QString("No report open"));
    }

    void cleanupTestCase() { window_.reset(); }
};

int runCommunicationPanelTest(int argc, char** argv) {
    return runGuiTest<CommunicationPanelTest>(argc, argv, "CommunicationPanelTest", "gui_communication_tests");
}

#include "CommunicationPanelTest.moc"
