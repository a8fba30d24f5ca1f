#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QWheelEvent>
#include <ctime>
#include <mutex>
#include <thread>

#include "RaiseDock.h"
#include "TestPaths.h"
#include "analysis/NvtxProjection.h"
#include "analysis/Registry.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ViewSession.h"
#include "app/gui/WhenShown.h"
#include "app/gui/bars/FindBar.h"
#include "app/gui/panels/diff/DiffPanel.h"
#include "app/gui/panels/gaps/GapsPanel.h"
#include "app/gui/panels/ranks/ComparePanel.h"
#include "app/gui/panels/rules/RulesPanel.h"
#include "app/gui/panels/statistics/StatsPanel.h"
#include "app/gui/panels/utilization/UtilizationChart.h"
#include "tests/support/SyntheticReport.h"
#include "timeline/DeferredLanes.h"
#include "timeline/TimelineView.h"

using namespace lanescope;

// The real window, offscreen: opening off the GUI thread, then zoom, pan, fit, range
// selection, event selection with its launcher, find, row filter and markers.
class MainWindowTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;
    TimelineView* view_ = nullptr;
    ViewSession* session_ = nullptr;

    std::string nameOf(const ViewEvent& e) {
        const Report& r = *view_->reports()[e.report];
        return std::string(r.str(r.lanes[e.lane].events.name_id[e.event]));
    }

    void wheel(QPoint at, int delta, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
        QWheelEvent event(at, view_->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton, modifiers,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(view_, &event);
    }

private slots:
    void initTestCase() {
        window_ = std::make_unique<MainWindow>();
        bool done = false, ok = false;
        window_->setAllLoadedCallback([&](bool allOk) {
            done = true;
            ok = allOk;
        });
        window_->resize(1400, 900);
        window_->show();
        window_->openFiles({QString::fromStdString(test::dataFile("nsys-2025.3/train_1gpu.sqlite").string())});
        QVERIFY(QTest::qWaitFor([&] { return done; }, 20000));
        window_->setAllLoadedCallback({});  // done and ok end here: a later load must not reach them
        QVERIFY(ok);
        view_ = window_->timeline();
        session_ = window_->session();
        QCOMPARE(session_->reports().size(), size_t(1));
        QVERIFY(window_->windowTitle().startsWith("train_1gpu.sqlite"));
        QCOMPARE(view_->viewport().visibleBegin(), view_->viewport().wholeBegin());
    }

    void wheelZoomKeepsTimeUnderCursor() {
        view_->fitAll();
        const QPoint at(view_->headerWidth() + 300, 200);
        const int64_t before = view_->timeAt(at.x());
        const int64_t span = view_->viewport().visibleSpan();
        wheel(at, 240);  // two notches in
        QVERIFY(view_->viewport().visibleSpan() < span * 2 / 3);
        const double nsPerPx = double(view_->viewport().visibleSpan()) / 1000;
        QVERIFY(std::abs(view_->timeAt(at.x()) - before) <= nsPerPx);
        QVERIFY(session_->back());
        QCOMPARE(view_->viewport().visibleSpan(), span);
    }

    // Middle-drag and Shift+drag pan (Nsight Systems' mouse); Home fits.
    void middleAndShiftDragPanAndHomeFits() {
        for (const auto& [button, modifiers] : {std::pair{Qt::MiddleButton, Qt::KeyboardModifiers()},
                                                std::pair{Qt::LeftButton, Qt::KeyboardModifiers(Qt::ShiftModifier)}}) {
            view_->zoomTo(view_->viewport().wholeBegin() + 100'000'000, view_->viewport().wholeBegin() + 200'000'000);
            const int64_t begin = view_->viewport().visibleBegin();
            const int64_t t0 = view_->timeAt(view_->headerWidth() + 500);
            const int64_t t1 = view_->timeAt(view_->headerWidth() + 400);
            QTest::mousePress(view_, button, modifiers, QPoint(view_->headerWidth() + 500, 300));
            QTest::mouseMove(view_, QPoint(view_->headerWidth() + 400, 300));
            QTest::mouseRelease(view_, button, modifiers, QPoint(view_->headerWidth() + 400, 300));
            QVERIFY(std::abs((view_->viewport().visibleBegin() - begin) - (t0 - t1)) < (t0 - t1) / 50);
            QVERIFY(!view_->selectedRange().has_value());
        }
        QTest::keyClick(view_, Qt::Key_Home);
        QCOMPARE(view_->viewport().visibleBegin(), view_->viewport().wholeBegin());
        QCOMPARE(view_->viewport().visibleEnd(), view_->viewport().wholeEnd());
    }

    // Left-drag on the lanes selects a time range and does not pan; so does Ctrl+drag, as
    // before; F fits it; a click on the ruler clears it.
    void leftDragSelectsRangeAndFFitsIt() {
        for (const Qt::KeyboardModifiers modifiers :
             {Qt::KeyboardModifiers(), Qt::KeyboardModifiers(Qt::ControlModifier)}) {
            view_->fitAll();
            const int64_t begin = view_->viewport().visibleBegin();
            const int x0 = view_->headerWidth() + 200, x1 = view_->headerWidth() + 450;
            QTest::mousePress(view_, Qt::LeftButton, modifiers, QPoint(x0, 300));
            QTest::mouseMove(view_, QPoint(x0 + 30, 300));
            QTest::mouseMove(view_, QPoint(x1, 300));
            QTest::mouseRelease(view_, Qt::LeftButton, modifiers, QPoint(x1, 300));
            QCOMPARE(view_->viewport().visibleBegin(), begin);
            const auto range = view_->selectedRange();
            QVERIFY(range.has_value());
            QCOMPARE(range->first, view_->timeAt(x0));
            QCOMPARE(range->second, view_->timeAt(x1));
            QTest::keyClick(view_, Qt::Key_F);
            QCOMPARE(view_->viewport().visibleBegin(), range->first);
            QCOMPARE(view_->viewport().visibleEnd(), range->second);
            QTest::mouseClick(view_, Qt::LeftButton, {},
                              QPoint(view_->headerWidth() + 100, TimelineView::kRulerHeight / 2));
            QVERIFY(!view_->selectedRange().has_value());
        }
        // Right to left selects the same way.
        view_->fitAll();
        const int x0 = view_->headerWidth() + 450, x1 = view_->headerWidth() + 200;
        QTest::mousePress(view_, Qt::LeftButton, {}, QPoint(x0, 300));
        QTest::mouseMove(view_, QPoint(x1, 300));
        QTest::mouseRelease(view_, Qt::LeftButton, {}, QPoint(x1, 300));
        QVERIFY(view_->selectedRange().has_value());
        QCOMPARE(view_->selectedRange()->first, view_->timeAt(x1));
        view_->setSelectedRange(std::nullopt);
    }

    void findJumpsToTheEventAndSelectsIt() {
        auto* find = window_->findChild<FindBar*>();
        QVERIFY(find);
        find->activate();
        find->input()->setText("step 3");
        QCOMPARE(find->hitCount(), size_t(1));
        find->next();
        const auto selected = view_->selectedEvent();
        QVERIFY(selected.has_value());
        QCOMPARE(nameOf(*selected), std::string("step 3"));
        const Lane& lane = view_->reports()[0]->lanes[selected->lane];
        QVERIFY(view_->viewport().visibleBegin() <= lane.events.start_ns[selected->event]);
        QVERIFY(view_->viewport().visibleEnd() >= lane.events.endNs(selected->event));
        QVERIFY(window_->findChild<QTextBrowser*>()->toPlainText().contains("step 3"));
    }

    void clickingAKernelShowsItsDetailsAndLauncher() {
        auto* find = window_->findChild<FindBar*>();
        find->input()->setText("fmha_cutlassB");
        QVERIFY(find->hitCount() == 15);
        find->next();
        const auto kernel = view_->selectedEvent();
        QVERIFY(kernel.has_value());
        // Click it where it is drawn: the same event is selected again.
        const QRect r = view_->eventRect(*kernel);
        QVERIFY(!r.isEmpty());
        view_->selectEvent(std::nullopt);
        QTest::mouseClick(view_, Qt::LeftButton, {}, r.center());
        QVERIFY(view_->selectedEvent() == kernel);
        // A click that wobbles by a few pixels is still a click: it selects, it draws no range.
        view_->selectEvent(std::nullopt);
        QTest::mousePress(view_, Qt::LeftButton, {}, r.center());
        QTest::mouseMove(view_, r.center() + QPoint(2, 1));
        QTest::mouseRelease(view_, Qt::LeftButton, {}, r.center() + QPoint(2, 1));
        QVERIFY(view_->selectedEvent() == kernel);
        QVERIFY(!view_->selectedRange().has_value());
        const QString details = window_->findChild<QTextBrowser*>()->toPlainText();
        QVERIFY(details.contains("Grid"));
        QVERIFY(details.contains("Correlation"));
        // 128 threads of 255 registers: 2 blocks of 4 warps by the register file (model/Occupancy.h).
        QVERIFY2(
            details.contains("Theoretical occupancy\n12.5 % (8 of 64 warps per SM, 2 blocks; limited by registers)"),
            qPrintable(details));
        // For a person to look at: LANESCOPE_TEST_SCREENSHOTS=DIR saves the window.
        if (const QString dir = qEnvironmentVariable("LANESCOPE_TEST_SCREENSHOTS"); !dir.isEmpty())
            window_->grab().save(dir + "/kernel-selected.png");
    }

    void rowFilterAndMarkers() {
        QLineEdit* filter = nullptr;
        for (QLineEdit* edit : window_->findChildren<QLineEdit*>())
            if (edit->placeholderText().startsWith("Filter rows")) filter = edit;
        QVERIFY(filter);
        filter->setText("NVTX");
        bool onlyNvtxLanes = true;
        for (const LayoutRow& row : view_->rows().rows())
            if (row.type == Row::Type::Lane) onlyNvtxLanes &= row.label.starts_with("NVTX");
        QVERIFY(onlyNvtxLanes);
        filter->setText("/^(Stream 7|NVTX)$/");
        QCOMPARE(int(std::count_if(view_->rows().rows().begin(), view_->rows().rows().end(),
                                   [](const LayoutRow& r) { return r.type == Row::Type::Lane; })),
                 2);
        filter->clear();
        const size_t markers = session_->markers().size();
        QTest::keyClick(view_, Qt::Key_M, Qt::ControlModifier);
        QCOMPARE(session_->markers().size(), markers + 1);
        auto* list = window_->findChild<QListWidget*>();
        QVERIFY(list);
        QCOMPARE(list->count(), int(markers + 1));
        session_->renameMarker(int(markers), "warm-up ends");
        QCOMPARE(list->item(int(markers))->text(), QString("warm-up ends"));
        session_->removeMarker(int(markers));
        QCOMPARE(list->count(), int(markers));
    }

    // The Statistics panel lists every registry report in its picker and opens on the first
    // one with rows: a report without CUDA work opens on its OS runtime calls, not on an empty
    // Kernels table; one with kernels on the kernels.
    void statisticsOpenOnTheFirstReportWithRows() {
        auto cpuOnly = std::make_shared<Report>();
        Lane lane;
        lane.kind = LaneKind::OsRuntime;
        lane.events.append(10, 30, cpuOnly->strings.intern("read"), kNoPayload, EventKind::OsRuntimeCall);
        lane.events.append(40, 90, cpuOnly->strings.intern("write"), kNoPayload, EventKind::OsRuntimeCall);
        lane.events.depth = {0, 0};
        cpuOnly->lanes.push_back(std::move(lane));
        cpuOnly->meta.end_ns = 100;
        ViewSession session;
        StatsPanel panel(&session);
        panel.show();  // a panel computes while it is shown (WhenShown)
        auto* picker = panel.findChild<QComboBox*>("statsReportPicker");
        QVERIFY(picker);
        QCOMPARE(picker->count(), int(statsReports().size()));
        session.addReport(cpuOnly, nullptr);
        QVERIFY(QTest::qWaitFor([&] { return !panel.busy() && panel.table("osrt_sum")->rows.size() == 2; }, 10000));
        QCOMPARE(panel.currentReportName(), QString("osrt_sum"));
        QCOMPARE(picker->currentText(), QString("OS runtime"));

        auto* stats = window_->findChild<StatsPanel*>();
        QVERIFY(stats);
        QVERIFY(QTest::qWaitFor([&] { return !stats->busy(); }, 10000));
        QCOMPARE(stats->currentReportName(), QString("cuda_gpu_kern_sum"));
    }

    // Statistics follow the selection, computed off the GUI thread, equal to the model's.
    void statisticsFollowTheSelection() {
        auto* stats = window_->findChild<StatsPanel*>();
        QVERIFY(stats);
        QVERIFY(QTest::qWaitFor([&] { return !stats->busy(); }, 10000));
        const Report& report = *view_->reports()[0];
        QCOMPARE(toCsv(*stats->table("cuda_gpu_kern_sum")), toCsv(*computeStats(report, "cuda_gpu_kern_sum")));
        const int64_t begin = report.meta.begin_ns + 100'000'000, end = begin + 80'000'000;
        view_->setSelectedRange(std::make_pair(begin, end));
        QVERIFY(QTest::qWaitFor([&] { return !stats->busy(); }, 10000));
        // Only the shown table follows the selection; another one is computed when picked.
        QVERIFY(stats->table("nvtx_sum")->rows.empty());
        auto* picker = stats->findChild<QComboBox*>("statsReportPicker");
        QVERIFY(picker);
        picker->setCurrentIndex(picker->findData("nvtx_sum"));
        QVERIFY(QTest::qWaitFor([&] { return !stats->busy() && !stats->table("nvtx_sum")->rows.empty(); }, 10000));
        const auto expected = computeStats(report, "nvtx_sum", TimeRange{begin, end});
        QCOMPARE(toCsv(*stats->table("nvtx_sum")), toCsv(*expected));
        QVERIFY(stats->table("nvtx_sum")->rows.size() < computeStats(report, "nvtx_sum")->rows.size());
        // "Show instances" selects the longest "data" range.
        emit stats->showInstances(0, "^data$");
        const auto selected = view_->selectedEvent();
        QVERIFY(selected.has_value());
        QCOMPARE(nameOf(*selected), std::string("data"));
        const auto& ev = report.lanes[selected->lane].events;
        QCOMPARE(ev.endNs(selected->event) - ev.start_ns[selected->event], int64_t(28896704));  // nvtx_sum's Max
        view_->setSelectedRange(std::nullopt);
        picker->setCurrentIndex(0);
    }

    // Only the shown table is computed; any other, like nvtx_kern_sum whose rows grow with the
    // events, when picked.
    void statisticsComputeLargeReportsWhenPicked() {
        auto* stats = window_->findChild<StatsPanel*>();
        QVERIFY(stats);
        QVERIFY(QTest::qWaitFor([&] { return !stats->busy(); }, 10000));
        const Report& report = *view_->reports()[0];
        QVERIFY(stats->table("nvtx_kern_sum")->rows.empty());
        QVERIFY(!computeStats(report, "nvtx_kern_sum")->rows.empty());
        auto* picker = stats->findChild<QComboBox*>("statsReportPicker");
        QVERIFY(picker);
        picker->setCurrentText("NVTX ranges by kernel");
        QVERIFY(QTest::qWaitFor([&] { return !stats->busy() && !stats->table("nvtx_kern_sum")->rows.empty(); }, 10000));
        QCOMPARE(toCsv(*stats->table("nvtx_kern_sum")), toCsv(*computeStats(report, "nvtx_kern_sum")));
        picker->setCurrentIndex(0);
    }

    // GPU gaps at the 1 ms preset: 14 in train_1gpu; clicking one zooms to it and selects
    // the NVTX range the CPU was in ("data"). Rules and the utilization chart fill too.
    void gapsRulesAndUtilization() {
        auto* gaps = window_->findChild<GapsPanel*>();
        QVERIFY(gaps);
        // Behind the Statistics tab, where Qt keeps it "visible", it has computed nothing, also
        // when its threshold changes; brought to the front, it computes.
        QVERIFY(gaps->isVisible());
        QVERIFY(!onScreen(gaps));
        gaps->setThresholdMs(1.0);
        QVERIFY(!gaps->busy());
        QCOMPARE(gaps->gapCount(), size_t(0));
        raiseDockOf(gaps);
        QVERIFY(onScreen(gaps));
        QVERIFY(QTest::qWaitFor([&] { return !gaps->busy(); }, 10000));
        QCOMPARE(gaps->gapCount(), size_t(14));
        gaps->activateGap(0);
        const auto range = view_->selectedRange();
        QVERIFY(range.has_value());
        QCOMPARE(range->second - range->first, int64_t(28868557));  // the longest gap, as nsys lists it
        QVERIFY(view_->viewport().visibleBegin() < range->first && view_->viewport().visibleEnd() > range->second);
        QVERIFY(view_->selectedEvent().has_value());
        QCOMPARE(nameOf(*view_->selectedEvent()), std::string("data"));

        auto* rules = window_->findChild<RulesPanel*>();
        raiseDockOf(rules);
        rules->setRule("cuda_api_sync");
        QVERIFY(QTest::qWaitFor([&] { return !rules->busy(); }, 10000));
        QCOMPARE(rules->rowCount(), 46);  // nsys lists 46 rows for train_1gpu
        rules->activateRow(0);
        QCOMPARE(nameOf(*view_->selectedEvent()), std::string("cudaStreamSynchronize_v3020"));

        auto* utilization = window_->findChild<UtilizationChart*>();
        raiseDockOf(utilization);
        QVERIFY(QTest::qWaitFor([&] { return !utilization->busy() && utilization->seriesCount() == 2; }, 10000));
        if (const QString dir = qEnvironmentVariable("LANESCOPE_TEST_SCREENSHOTS"); !dir.isEmpty()) {
            for (QDockWidget* dock : window_->findChildren<QDockWidget*>())
                if (dock->objectName() == "gaps") dock->raise();
            QTest::qWait(50);
            window_->grab().save(dir + "/gaps.png");
            for (QDockWidget* dock : window_->findChildren<QDockWidget*>())
                if (dock->objectName() == "utilization") dock->raise();
            view_->fitAll();
            QTest::qWait(400);
            window_->grab().save(dir + "/utilization.png");
        }
        view_->setSelectedRange(std::nullopt);
    }

    // The GUI thread never blocks while a big report imports: between two ticks of a 5 ms
    // timer it never spends more than 100 ms of its own CPU time (thread CPU time, so a
    // machine busy with other work does not count as the GUI blocking).
    void guiStaysResponsiveDuringImport() {
        const auto dir = test::tempDir("responsive");
        const auto file = dir / "synthetic.sqlite";
        bench::writeSyntheticReport(file, 600000);
        MainWindow window;
        bool done = false, ok = false;
        window.setAllLoadedCallback([&](bool allOk) {
            done = true;
            ok = allOk;
        });
        window.show();
        auto threadCpuMs = [] {
            timespec t{};
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
            return t.tv_sec * 1000.0 + t.tv_nsec / 1e6;
        };
        double lastTick = threadCpuMs(), worst = 0;
        int ticks = 0;
        QTimer ticker;
        ticker.setInterval(5);
        connect(&ticker, &QTimer::timeout, [&] {
            const double now = threadCpuMs();
            worst = std::max(worst, now - lastTick);
            lastTick = now;
            ++ticks;
        });
        QElapsedTimer clock;
        clock.start();
        ticker.start();
        window.openFiles({QString::fromStdString(file.string())});
        QVERIFY(QTest::qWaitFor([&] { return done; }, 60000));
        QTest::qWait(200);  // the panels' first results and paints
        ticker.stop();
        QVERIFY(ok);
        QVERIFY(ticks > 10);
        qInfo("import of 600,000 events took %lld ms; GUI thread at most %.1f ms of CPU between ticks (%d ticks)",
              clock.elapsed(), worst, ticks);
        QVERIFY2(worst < 100, qPrintable(QString("GUI thread busy %1 ms at once").arg(worst)));

        // A trace of more events than the panel shows: its first rows, and the count of all.
        auto* stats = window.findChild<StatsPanel*>();
        auto* picker = stats->findChild<QComboBox*>("statsReportPicker");
        picker->setCurrentText("GPU trace");
        QVERIFY(QTest::qWaitFor([&] { return stats->shownTableReady() && !stats->busy(); }, 60000));
        const StatsTable whole = *computeStats(*window.session()->reports()[0], "cuda_gpu_trace");
        QVERIFY(whole.rows.size() > StatsTableView::kShownRows);
        const StatsTable* shown = stats->table("cuda_gpu_trace");
        QCOMPARE(shown->rows.size(), StatsTableView::kShownRows);
        QCOMPARE(shown->rows.size() + shown->rows_left_out, whole.rows.size());
        QCOMPARE(formatCell(shown->rows.back()[0]), formatCell(whole.rows[StatsTableView::kShownRows - 1][0]));
        auto* scope = stats->findChild<QLabel*>("statsScope");
        QVERIFY2(scope->text().contains(QLocale().toString(qulonglong(whole.rows.size())) + " rows shown"),
                 qPrintable(scope->text()));
        if (const QString shots = qEnvironmentVariable("LANESCOPE_TEST_SCREENSHOTS"); !shots.isEmpty())
            window.grab().save(shots + "/trace_first_rows.png");
        std::filesystem::remove_all(dir);
    }

    // Two ranks of one DDP job opened together (in parallel, shown in the order given):
    // aligned by NCCL, by clock, none, nudged; the straggler; a collective shown on both; and
    // the diff of the two runs.
    void ranksSideBySideAndDiff() {
        MainWindow window;
        bool done = false, ok = false;
        window.setAllLoadedCallback([&](bool allOk) {
            done = true;
            ok = allOk;
        });
        window.resize(1400, 900);
        window.show();
        window.openFiles({QString::fromStdString(test::dataFile("nsys-2025.3/ddp_rank0.sqlite").string()),
                          QString::fromStdString(test::dataFile("nsys-2025.3/ddp_rank1.sqlite").string())});
        QVERIFY(QTest::qWaitFor([&] { return done; }, 30000));
        QVERIFY(ok);
        TimelineView* view = window.timeline();
        QCOMPARE(view->reports().size(), size_t(2));
        QVERIFY(view->reports()[0]->meta.source_path.ends_with("ddp_rank0.sqlite"));
        QCOMPARE(QString::fromStdString(view->rows().rows().front().label), QString("rank 0 · ddp_rank0.sqlite"));
        auto* compare = window.findChild<ComparePanel*>();
        QVERIFY(QTest::qWaitFor([&] { return !compare->busy() && compare->comparison().ranks.size() == 2; }, 10000));
        // NCCL: rank 1 about 12.94 ms earlier, as its session start says, to a few us.
        const int64_t clock = view->reports()[1]->meta.start_utc_ns - view->reports()[0]->meta.start_utc_ns;
        QVERIFY(std::abs(view->reportOffset(1) - clock) < 100'000);
        QCOMPARE(view->reportOffset(0), int64_t(0));
        QVERIFY(compare->stragglerText().contains("rank 1"));
        // Clicking a matched AllReduce shows it on both ranks: the range holds both kernels.
        int row = -1;
        for (size_t i = 0; i < compare->comparison().collectives.size(); ++i)
            if (compare->comparison().collectives[i].kind == "AllReduce" &&
                compare->comparison().collectives[i].present == 2)
                row = int(i);
        QVERIFY(row >= 0);
        compare->activateCollective(row);
        const auto range = view->selectedRange();
        QVERIFY(range.has_value());
        const MatchedCollective& mc = compare->comparison().collectives[size_t(row)];
        for (int r = 0; r < 2; ++r) {
            const Lane& lane = view->reports()[r]->lanes[mc.kernels[r].lane];
            QVERIFY(lane.events.start_ns[mc.kernels[r].index] + view->reportOffset(r) >= range->first);
            QVERIFY(lane.events.endNs(mc.kernels[r].index) + view->reportOffset(r) <= range->second);
            QVERIFY(!view->eventRect(ViewEvent{r, mc.kernels[r].lane, mc.kernels[r].index}).isEmpty());
        }
        compare->setMode(AlignMode::None);
        QVERIFY(QTest::qWaitFor([&] { return !compare->busy() && view->reportOffset(1) == 0; }, 10000));
        compare->setNudge(1, 250'000);
        QVERIFY(QTest::qWaitFor([&] { return !compare->busy() && view->reportOffset(1) == 250'000; }, 10000));
        compare->setMode(AlignMode::Clock);
        QVERIFY(QTest::qWaitFor([&] { return !compare->busy() && view->reportOffset(1) == clock + 250'000; }, 10000));

        auto* diff = window.findChild<DiffPanel*>();
        raiseDockOf(diff);
        QVERIFY(QTest::qWaitFor([&] { return !diff->busy() && !diff->rows().empty(); }, 10000));
        for (const DiffRow& r : diff->rows()) QVERIFY(r.base_count > 0 || r.cand_count > 0);
        if (const QString dir = qEnvironmentVariable("LANESCOPE_TEST_SCREENSHOTS"); !dir.isEmpty())
            window.grab().save(dir + "/ranks.png");
    }

    // The "NVTX on GPU" row is added deferred: nothing is projected while it is out of sight (a
    // row filter hides it); once drawn, its process is projected on the view's own thread, the
    // row fills, and a click on a projected range selects the range itself.
    void nvtxOnGpuRowsProjectWhenShown() {
        MainWindow window;
        std::mutex mutex;
        std::vector<std::thread::id> builtOn;
        window.timeline()->setDeferredLaneBuilder([&](const Report& report, size_t lane) {
            {
                std::lock_guard lock(mutex);
                builtOn.push_back(std::this_thread::get_id());
            }
            return projectDeferredLanes(report, lane, 2);
        });
        QLineEdit* filter = nullptr;
        for (QLineEdit* edit : window.findChildren<QLineEdit*>())
            if (edit->placeholderText().startsWith("Filter rows")) filter = edit;
        QVERIFY(filter);
        filter->setText("Stream");
        bool done = false;
        window.setAllLoadedCallback([&](bool) { done = true; });
        window.resize(1400, 900);
        window.show();
        window.openFiles({QString::fromStdString(test::dataFile("nsys-2025.3/train_1gpu.sqlite").string())});
        QVERIFY(QTest::qWaitFor([&] { return done; }, 20000));
        TimelineView* view = window.timeline();
        const Report& report = *view->reports()[0];
        const auto isProjection = [&](const Lane& l) { return l.kind == LaneKind::NvtxGpuProjection; };
        const auto found = std::find_if(report.lanes.begin(), report.lanes.end(), isProjection);
        QVERIFY(found != report.lanes.end());
        const auto lane = uint32_t(found - report.lanes.begin());
        QTest::qWait(300);  // frames drawn, panels filled
        QVERIFY(isDeferredLane(report, lane));
        QVERIFY(!DeferredLanes::of(report).ready(lane));
        QCOMPARE(view->deferredLanesPending(), 0);
        QVERIFY(builtOn.empty());

        filter->clear();  // the row is in sight: drawn, asked for, built apart, drawn again
        QVERIFY(QTest::qWaitFor(
            [&] { return DeferredLanes::of(report).ready(lane) && view->deferredLanesPending() == 0; }, 20000));
        QTest::qWait(50);
        QCOMPARE(builtOn.size(), size_t(1));
        QVERIFY(builtOn[0] != std::this_thread::get_id());
        const Lane& projected = *DeferredLanes::of(report).ready(lane);
        QVERIFY(projected.events.size() > 0);
        const auto row = std::find_if(view->rows().rows().begin(), view->rows().rows().end(), [&](const LayoutRow& r) {
            return r.type == Row::Type::Lane && r.lanes == std::vector<int>{int(lane)};
        });
        QVERIFY(row != view->rows().rows().end());
        QCOMPARE(row->height, std::max<int>(1, projected.depth_count) * RowLayout::kDepthPx + RowLayout::kPaddingPx);
        QCOMPARE(row->events, uint64_t(projected.events.size()));

        // The widest projected range, clicked where it is drawn, selects its NVTX range.
        uint32_t widest = 0;
        for (uint32_t i = 0; i < projected.events.size(); ++i)
            if (projected.events.depth[i] == 0 && projected.events.durationNs(i) > projected.events.durationNs(widest))
                widest = i;
        const QRect box = view->eventRect(ViewEvent{0, lane, widest});
        QVERIFY(!box.isEmpty());
        QTest::mouseClick(view, Qt::LeftButton, {}, box.center());
        const auto selected = view->selectedEvent();
        QVERIFY(selected.has_value());
        const Lane& range = report.lanes[selected->lane];
        QVERIFY(range.kind == LaneKind::Nvtx || range.kind == LaneKind::NvtxStartEnd);
        QCOMPARE(range.events.name_id[selected->event], projected.events.name_id[widest]);
        QCOMPARE(range.events.payload[selected->event], projected.events.payload[widest]);
        if (const QString dir = qEnvironmentVariable("LANESCOPE_TEST_SCREENSHOTS"); !dir.isEmpty())
            window.grab().save(dir + "/nvtx-on-gpu.png");
    }

    // A panel that is not shown computes nothing; shown, it computes what it was asked for.
    void aHiddenPanelComputesOnlyOnceShown() {
        ViewSession session;
        GapsPanel gaps(&session);
        gaps.setThresholdMs(1);
        session.addReport(view_->reports()[0], nullptr);
        QTest::qWait(300);
        QVERIFY(!gaps.busy());
        QCOMPARE(gaps.gapCount(), size_t(0));
        gaps.show();
        QVERIFY(QTest::qWaitFor([&] { return !gaps.busy() && gaps.gapCount() > 0; }, 10000));
    }

    void cleanupTestCase() { window_.reset(); }
};

int runMainWindowTest(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("LANESCOPE_CACHE", "off");  // never the user's saved models
    QApplication app(argc, argv);
    QApplication::setOrganizationName("LanescopeTests");
    MainWindowTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "MainWindowTest.moc"
