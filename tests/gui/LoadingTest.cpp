// The window while a big report loads: its rows (the importer's row skeleton) show on the
// timeline before the report is handed over, with the loading bar above; a row collapsed and
// the rows scrolled while loading stay so once the report replaces its placeholder; Esc
// cancels and removes the placeholder; no slice of heavy work runs on the GUI thread while it
// loads (the stall detector); a file opened before reopens from its saved model. No timing is asserted: a
// synthetic report of 2 M events takes seconds to import, and the test acts as soon as the rows show.
#include <QAction>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QProgressBar>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "GuiTestMain.h"
#include "TestPaths.h"
#include "analysis/Cancellation.h"
#include "analysis/DeferredLaneBytes.h"
#include "analysis/NvtxProjection.h"
#include "analysis/StatsTableBytes.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ViewSession.h"
#include "app/gui/bars/LoadingBar.h"
#include "app/gui/import/ImportQueue.h"
#include "app/gui/import/NvtxOnGpuLanes.h"
#include "app/gui/panels/statistics/StatsPanel.h"
#include "importers/Importer.h"
#include "importers/cache/KeptResults.h"
#include "importers/cache/ReportCache.h"
#include "tests/support/SyntheticReport.h"
#include "timeline/DeferredLanes.h"
#include "timeline/TimelineView.h"

using namespace lanescope;

namespace {

QScrollBar* verticalScrollBar(TimelineView* view) {
    for (QScrollBar* bar : view->findChildren<QScrollBar*>())
        if (bar->orientation() == Qt::Vertical) return bar;
    return nullptr;
}

const LayoutRow* rowOf(TimelineView* view, Row::Type type, int index, bool loading) {
    for (const LayoutRow& row : view->rows().rows())
        if (row.type == type && row.index == index && row.loading == loading) return &row;
    return nullptr;
}

// The key of the row at the top of the lanes.
std::string topRowKey(TimelineView* view) {
    const LayoutRow* row = view->rows().rowAt(verticalScrollBar(view)->value());
    return row ? row->key : std::string();
}

// Where a click on a row's arrow lands (TimelineView: 8 px in, 14 px a level, the arrow 5 px wide).
QPoint arrowOf(TimelineView* view, const LayoutRow& row) {
    return {8 + row.level * 14 + 5, row.y - verticalScrollBar(view)->value() + TimelineView::kRulerHeight + 11};
}

}  // namespace

class LoadingTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString file_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        file_ = dir_.filePath("synthetic.sqlite");
        bench::writeSyntheticReport(file_.toStdString(), 2'000'000);
    }

    // Rows before the report; a thread collapsed and the view scrolled while loading are kept.
    void rowsShowWhileLoadingAndKeepTheirState() {
        MainWindow window;
        bool done = false, ok = false;
        window.setAllLoadedCallback([&](bool allOk) {
            done = true;
            ok = allOk;
        });
        window.resize(1200, 700);
        window.show();
        TimelineView* view = window.timeline();
        bool rowsBeforeReport = false;
        connect(view, &TimelineView::framePainted, this, [&](int rows) {
            if (rows > 0 && window.session()->reports().empty()) rowsBeforeReport = true;
        });
        bool sessionSawPlaceholder = false;  // the panels' session never holds it
        connect(window.session(), &ViewSession::reportsChanged, this, [&] {
            for (const auto& r : window.session()->reports()) sessionSawPlaceholder |= r->lanes.empty();
        });
        auto* loading = window.findChild<LoadingBar*>();
        QVERIFY(loading);
        window.openFiles({file_});

        // The placeholder: both processes with their threads, as the importer found them.
        QVERIFY(QTest::qWaitFor([&] { return done || rowOf(view, Row::Type::Process, 1, true); }, 60000));
        QVERIFY2(!done, "the report was handed over before its rows showed");
        QVERIFY(view->reports().empty());
        QCOMPARE(view->placeholders().size(), size_t(1));
        QVERIFY(loading->isVisible());
        QVERIFY(loading->text().startsWith("Opening synthetic.sqlite"));
        QVERIFY(QTest::qWaitFor([&] { return done || rowsBeforeReport; }, 10000));
        QVERIFY(rowsBeforeReport);

        // Collapse the second process's first thread by its arrow, then scroll the first process to the top.
        const LayoutRow* thread = nullptr;
        for (const LayoutRow& row : view->rows().rows())
            if (row.type == Row::Type::Thread && row.key.starts_with(rowOf(view, Row::Type::Process, 1, true)->key)) {
                thread = &row;
                break;
            }
        QVERIFY(thread && thread->expanded);
        const std::string threadKey = thread->key;
        verticalScrollBar(view)->setValue(verticalScrollBar(view)->maximum());  // the thread in sight
        QTest::mouseClick(view, Qt::LeftButton, {}, arrowOf(view, *thread));
        QVERIFY(!view->rows().isExpanded(threadKey));
        // The first process's last row the view can scroll to the top (its own at least).
        const LayoutRow* first = rowOf(view, Row::Type::Process, 0, true);
        const LayoutRow* anchor = nullptr;
        for (const LayoutRow& row : view->rows().rows())
            if (row.key.starts_with(first->key) && row.y <= verticalScrollBar(view)->maximum()) anchor = &row;
        QVERIFY(anchor);
        verticalScrollBar(view)->setValue(anchor->y);
        const std::string top = topRowKey(view);
        QCOMPARE(top, anchor->key);

        QVERIFY(QTest::qWaitFor([&] { return done; }, 120000));
        QVERIFY(ok);
        QCOMPARE(window.session()->reports().size(), size_t(1));
        QVERIFY(view->placeholders().empty());
        QVERIFY(!loading->isVisible());
        QVERIFY(!sessionSawPlaceholder);
        QVERIFY(!view->rows().isExpanded(threadKey));
        bool collapsedShown = false;
        for (const LayoutRow& row : view->rows().rows()) {
            QVERIFY(!row.loading);
            if (row.key == threadKey) collapsedShown = !row.expanded;
        }
        QVERIFY(collapsedShown);
        QCOMPARE(topRowKey(view), top);
    }

    // Esc while loading: the import stops, its placeholder goes, nothing is opened.
    void escapeCancelsAndRemovesThePlaceholder() {
        MainWindow window;
        bool done = false, ok = true;
        window.setAllLoadedCallback([&](bool allOk) {
            done = true;
            ok = allOk;
        });
        window.resize(1400, 1000);
        window.show();
        TimelineView* view = window.timeline();
        auto* loading = window.findChild<LoadingBar*>();
        QVERIFY(loading->findChild<QToolButton*>());  // Cancel
        window.openFiles({file_});
        QVERIFY(QTest::qWaitFor([&] { return done || !view->placeholders().empty(); }, 60000));
        QVERIFY2(!done, "the report was handed over before its rows showed");
        QVERIFY(!view->rows().rows().empty());
        auto* details = window.findChild<QTextBrowser*>();  // says what is opening
        QVERIFY(details && details->toPlainText().startsWith("Opening"));
        QVERIFY(details->toPlainText().contains("synthetic.sqlite"));
        // For a person to look at: LANESCOPE_TEST_SCREENSHOTS=DIR saves the window while it loads.
        if (const QString shots = qEnvironmentVariable("LANESCOPE_TEST_SCREENSHOTS"); !shots.isEmpty()) {
            QTest::qWait(50);
            window.grab().save(shots + "/loading.png");
        }
        QTest::keyClick(view, Qt::Key_Escape);
        QVERIFY(QTest::qWaitFor([&] { return done; }, 60000));
        QVERIFY(!ok);
        QVERIFY(view->placeholders().empty());
        QVERIFY(view->rows().rows().empty());
        QVERIFY(window.session()->reports().empty());
        QVERIFY(!loading->isVisible());
        QVERIFY(details->toPlainText().startsWith("No report open"));
    }

    // The stall detector: a 5 ms timer on the GUI thread ticks while the report loads and the
    // panels on screen compute, and every slice of heavy work (64 Ki events of a loop: the
    // NVTX projection, the statistics) is counted by the thread it ran on. No slice may run on
    // the GUI thread, and the GUI thread must have turned its event loop while loading. The
    // longest gap between ticks is printed, not asserted: a loaded machine stretches it.
    void heavyWorkStaysOffTheGuiThread() {
        watchHeavyWork(std::this_thread::get_id());
        MainWindow window;
        bool done = false, ok = false;
        window.setAllLoadedCallback([&](bool allOk) {
            done = true;
            ok = allOk;
        });
        window.resize(1400, 1000);
        window.show();
        QTimer ticker;
        ticker.setTimerType(Qt::PreciseTimer);
        int ticks = 0;
        double longestMs = 0;
        QElapsedTimer sinceTick;
        connect(&ticker, &QTimer::timeout, this, [&] {
            longestMs = std::max(longestMs, double(sinceTick.nsecsElapsed()) / 1e6);
            sinceTick.restart();
            ++ticks;
        });
        sinceTick.start();
        ticker.start(5);
        window.openFiles({file_});
        QVERIFY(QTest::qWaitFor([&] { return done; }, 120000));
        QVERIFY(ok);
        const int ticksWhileLoading = ticks;
        QVERIFY(QTest::qWaitFor([&] { return window.shownPanelsReady(); }, 60000));
        const HeavyWorkSlices slices = heavyWorkSlices();
        qInfo(
            "slices of heavy work: %llu on the GUI thread, %llu elsewhere; %d ticks while loading, longest gap "
            "%.1f ms",
            static_cast<unsigned long long>(slices.on_watched), static_cast<unsigned long long>(slices.elsewhere),
            ticksWhileLoading, longestMs);
        QCOMPARE(slices.on_watched, uint64_t(0));
        // The projection alone goes through the 2 M-event report's CUDA API calls in slices.
        QVERIFY(slices.elsewhere >= 10);
        QVERIFY(ticksWhileLoading >= 10);
    }

    // The NVTX-on-GPU lanes built when shown are kept beside the saved model, and the next open
    // reads them back instead of projecting: kept lanes changed on disk come back changed. Kept
    // bytes that do not decode for the report are projected again and replaced.
    void nvtxOnGpuLanesAreKeptForTheNextOpen() {
        ImportOptions options;
        options.add_view_lanes = [](Report& r) { addDeferredNvtxProjectionLanes(r); };
        NullProgress progress;
        ImportResult result = importFile(test::dataFile("nsys-2025.3/train_1gpu.sqlite"), options, progress);
        QVERIFY(result.ok());
        const Report& report = *result.report();
        size_t lane = 0;
        while (lane < report.lanes.size() && !isDeferredLane(report, lane)) ++lane;
        QVERIFY(lane < report.lanes.size());
        const int32_t process = report.lanes[lane].process;
        const std::string name = "nvtx-gpu-lanes-" + std::to_string(process);
        QTemporaryDir models;
        const auto cache = std::make_shared<const ReportCache>(models.path().toStdString());
        KeptResults::attach(report, cache, "k");
        const auto same = [](const std::vector<DeferredLaneEvents>& a, const std::vector<DeferredLaneEvents>& b) {
            if (a.size() != b.size()) return false;
            for (size_t k = 0; k < a.size(); ++k) {
                const IntervalColumns &x = a[k].content.events, &y = b[k].content.events;
                if (a[k].lane != b[k].lane || x.size() != y.size() || a[k].sources != b[k].sources) return false;
                for (uint32_t i = 0; i < x.size(); ++i)
                    if (x.start_ns[i] != y.start_ns[i] || x.endNs(i) != y.endNs(i) || x.payload[i] != y.payload[i] ||
                        x.depth[i] != y.depth[i])
                        return false;
            }
            return true;
        };

        // Before the report is settled, lanes built go into its saved model: none kept beside it.
        QVERIFY(same(nvtxOnGpuLanes(report, lane, 2), projectDeferredLanes(report, lane, 1)));
        QVERIFY(!cache->loadResult("k", name));
        DeferredLanes::of(report).settle();
        const auto first = nvtxOnGpuLanes(report, lane, 2);  // projected, then kept
        QVERIFY(!first.empty() && first[0].content.events.size() > 0);
        QVERIFY(same(first, projectDeferredLanes(report, lane, 1)));
        const auto keptBytes = cache->loadResult("k", name);
        QVERIFY(keptBytes.has_value());
        const auto decoded = decodeDeferredLanes(report, process, *keptBytes);
        QVERIFY(decoded && same(*decoded, first));

        auto changed = first;  // kept lanes changed on disk: the next open shows the change
        changed[0].content.events.start_ns[0] -= 1;
        std::string error;
        QVERIFY(cache->storeResult("k", name, encodeDeferredLanes(changed), error));
        const auto reread = nvtxOnGpuLanes(report, lane, 2);
        QCOMPARE(reread[0].content.events.start_ns[0], first[0].content.events.start_ns[0] - 1);

        // Bytes that are no such lanes (cut short, another process's): projected again, kept again.
        QVERIFY(cache->storeResult("k", name, keptBytes->substr(0, keptBytes->size() - 3), error));
        QVERIFY(same(nvtxOnGpuLanes(report, lane, 2), first));
        QVERIFY(cache->loadResult("k", name) == keptBytes);
        QVERIFY(!decodeDeferredLanes(report, process + 1, *keptBytes));
    }

    // With the cache on (the setting's default), a file opened before reopens from its saved
    // model, the same report, and its Statistics panel shows the table kept from the first open;
    // a damaged entry is imported again and saved anew; the menu turns the setting off.
    void reopensFromItsSavedModel() {
        qunsetenv("LANESCOPE_CACHE");
        const QDir models(qEnvironmentVariable("XDG_CACHE_HOME") + "/lanescope/models");
        auto entries = [&] { return models.entryList({"*.model"}, QDir::Files); };
        MainWindow window;
        bool done = false, ok = false;
        window.setAllLoadedCallback([&](bool allOk) {
            done = true;
            ok = allOk;
        });
        window.show();
        auto action = [&](const QString& text) -> QAction* {
            for (QAction* a : window.findChildren<QAction*>())
                if (a->text() == text) return a;
            return nullptr;
        };
        QAction* close = action("&Close");
        QVERIFY(close);
        auto openOnce = [&] {
            done = false;
            close->trigger();
            window.openFiles({file_});
            return QTest::qWaitFor([&] { return done; }, 120000) && ok && window.session()->reports().size() == 1;
        };
        QVERIFY(openOnce());
        QVERIFY(window.statusBar()->currentMessage().startsWith("Opened synthetic.sqlite"));
        const auto imported = window.session()->reports().front();
        // Saved after the report was handed over, off the GUI thread.
        QVERIFY(QTest::qWaitFor([&] { return entries().size() == 1; }, 60000));
        // The Statistics table the window opened on is kept beside the model, as computed.
        auto* stats = window.findChild<StatsPanel*>();
        QVERIFY(stats);
        QVERIFY(QTest::qWaitFor([&] { return window.shownPanelsReady(); }, 60000));
        const QString shownName = stats->currentReportName();
        const QString keptFile = entries().front() + ".stats-" + shownName + ".result";
        QVERIFY2(QTest::qWaitFor([&] { return models.exists(keptFile); }, 10000), qPrintable(keptFile));
        const std::string key = entries().front().chopped(int(QString(".model").size())).toStdString();
        const std::string keptName = "stats-" + shownName.toStdString();
        const ReportCache cache(models.absolutePath().toStdString());
        std::optional<StatsTable> kept;
        if (const auto bytes = cache.loadResult(key, keptName)) kept = decodeStatsTable(*bytes);
        QVERIFY(kept && !kept->rows.empty());
        QCOMPARE(toCsv(*kept), toCsv(*stats->table(shownName)));
        // Changed there (a mark in its first row), it is what a reopen shows: read, not computed.
        kept->rows[0][0] = int64_t{-424242};
        std::string keepError;
        QVERIFY(cache.storeResult(key, keptName, encodeStatsTable(*kept), keepError));

        // The reopen shows the rows first, as an import does: the saved lanes, without events.
        auto* queue = window.findChild<ImportQueue*>();
        QVERIFY(queue);
        std::shared_ptr<const Report> rows;
        bool rowsBeforeReport = false;
        const auto rowsSeen =
            connect(queue, &ImportQueue::skeletonReady, this, [&](uint64_t, std::shared_ptr<const Report> given) {
                if (rows) return;
                rows = std::move(given);
                rowsBeforeReport = window.session()->reports().empty();
            });
        QVERIFY(openOnce());
        disconnect(rowsSeen);
        QVERIFY2(window.statusBar()->currentMessage().startsWith("Reopened synthetic.sqlite from its saved model"),
                 qPrintable(window.statusBar()->currentMessage()));
        auto reopened = window.session()->reports().front();
        QVERIFY(reopened != imported);
        QCOMPARE(reopened->lanes.size(), imported->lanes.size());
        QVERIFY(rows && rowsBeforeReport);
        QCOMPARE(rows->lanes.size(), reopened->lanes.size());
        for (size_t i = 0; i < rows->lanes.size(); ++i) {
            QCOMPARE(rows->lanes[i].kind, reopened->lanes[i].kind);
            QCOMPARE(rows->str(rows->lanes[i].name_id), reopened->str(reopened->lanes[i].name_id));
            QCOMPARE(rows->lanes[i].events.size(), size_t(0));
        }
        QCOMPARE(reopened->counts().slices, imported->counts().slices);
        QCOMPARE(reopened->meta.source_path, imported->meta.source_path);
        QVERIFY(!window.timeline()->rows().rows().empty());
        // The NVTX-on-GPU rows the first open drew are in the saved model as they were built, not
        // kept beside it, and a click on one of their ranges selects the NVTX range it stands for
        // (kept beside the model).
        size_t savedLanes = 0;
        for (size_t li = 0; li < imported->lanes.size(); ++li) {
            const Lane* built = isDeferredLane(*imported, li) ? DeferredLanes::of(*imported).ready(li) : nullptr;
            if (!built || built->events.size() == 0) continue;
            ++savedLanes;
            QVERIFY(!isDeferredLane(*reopened, li));
            const IntervalColumns &was = built->events, &is = reopened->lanes[li].events;
            QCOMPARE(is.size(), was.size());
            for (uint32_t i = 0; i < was.size(); ++i)
                QVERIFY(is.start_ns[i] == was.start_ns[i] && is.endNs(i) == was.endNs(i) &&
                        is.payload[i] == was.payload[i] && is.depth[i] == was.depth[i]);
            QVERIFY(!cache.loadResult(key, "nvtx-gpu-lanes-" + std::to_string(imported->lanes[li].process)));
            TimelineView* view = window.timeline();
            const auto lane = uint32_t(li);
            uint32_t widest = 0;
            for (uint32_t i = 0; i < is.size(); ++i)
                if (is.depth[i] == 0 && is.durationNs(i) > is.durationNs(widest)) widest = i;
            view->selectEvent(ViewEvent{0, lane, widest}, true);  // scrolled into sight
            view->selectEvent(std::nullopt);
            QTest::qWait(50);
            const QRect box = view->eventRect(ViewEvent{0, lane, widest});
            QVERIFY(!box.isEmpty());
            QTest::mouseClick(view, Qt::LeftButton, {}, box.center());
            const auto selected = view->selectedEvent();
            QVERIFY(selected.has_value());
            const EventRef source = DeferredLanes::of(*imported).source(li, widest);
            QCOMPARE(selected->lane, source.lane);
            QCOMPARE(selected->event, source.index);
            QVERIFY(cache.loadResult(key, projectedSourcesName(li)));
            // The same range for the Events panel's click, on the saved lane and on the built one.
            QVERIFY(projectedNvtxRange(*reopened, li, widest) == source);
            QVERIFY(projectedNvtxRange(*imported, li, widest) == source);
        }
        QVERIFY(savedLanes > 0);
        QCOMPARE(window.timeline()->deferredLanesPending(), 0);
        QVERIFY(QTest::qWaitFor([&] { return window.shownPanelsReady(); }, 60000));
        QCOMPARE(stats->currentReportName(), shownName);
        QCOMPARE(toCsv(*stats->table(shownName)), toCsv(*kept));
        // The check for a model cut short runs while a mapped model is open, and stops once none is.
        auto* check = window.findChild<QTimer*>("savedModelCheck");
        QVERIFY(check && check->isActive());
        reopened.reset();
        rows.reset();
        close->trigger();
        QVERIFY(QTest::qWaitFor([&] { return !check->isActive(); }, 10000));
        QVERIFY(openOnce());
        QVERIFY(window.statusBar()->currentMessage().startsWith("Reopened"));
        QVERIFY(check->isActive());

        // Cut short in place (by a hand) under the report the window shows, which maps it: the
        // report reads zeros past the cut instead of ending the program, and the window says so.
        // Opened again, the entry is dropped, the file imported again and saved again.
        const QString entry = models.filePath(entries().front());
        std::filesystem::resize_file(entry.toStdString(), 4096);
        int64_t starts = 0;
        for (const Lane& lane : window.session()->reports().front()->lanes)
            for (const int64_t start : lane.events.start_ns) starts += start;
        QCOMPARE(starts, int64_t{0});
        QVERIFY(QTest::qWaitFor(
            [&] { return window.statusBar()->currentMessage().startsWith("A saved model was cut short"); }, 10000));
        // For a person to look at: LANESCOPE_TEST_SCREENSHOTS=DIR saves the window.
        if (const QString dir = qEnvironmentVariable("LANESCOPE_TEST_SCREENSHOTS"); !dir.isEmpty())
            window.grab().save(dir + "/cut_saved_model.png");
        QVERIFY(openOnce());
        QVERIFY(window.statusBar()->currentMessage().startsWith("Opened synthetic.sqlite"));
        QCOMPARE(window.session()->reports().front()->counts().slices, imported->counts().slices);
        QVERIFY(QTest::qWaitFor([&] { return entries().size() == 1; }, 60000));
        QVERIFY(openOnce());
        QVERIFY(window.statusBar()->currentMessage().startsWith("Reopened"));

        // File > Keep opened reports for fast reopening: off, and remembered.
        QAction* keep = action("&Keep opened reports for fast reopening");
        QVERIFY(keep && keep->isCheckable() && keep->isChecked());
        keep->trigger();
        QVERIFY(!QSettings().value("cache/keepModels").toBool());
        QVERIFY(openOnce());
        QVERIFY(window.statusBar()->currentMessage().startsWith("Opened synthetic.sqlite"));
        keep->trigger();
        qputenv("LANESCOPE_CACHE", "off");
    }
};

int runLoadingTest(int argc, char** argv) {
    return runGuiTest<LoadingTest>(argc, argv, "LoadingTest", "gui_loading_tests");
}

#include "LoadingTest.moc"
