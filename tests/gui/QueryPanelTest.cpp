#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDockWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>
#include <algorithm>

#include "GuiTestMain.h"
#include "TestPaths.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ViewSession.h"
#include "app/gui/panels/query/QueryHistory.h"
#include "app/gui/panels/query/QueryPanel.h"
#include "app/gui/panels/query/QueryResultModel.h"
#include "app/gui/panels/query/TableList.h"
#include "query/ReportSql.h"
#include "query/SqlValues.h"

using namespace lanescope;

// The Query panel in the real window, offscreen, on the Nsight Systems capture of tests/data:
// a query's rows against the model's own counts, a bad query's message, cancelling a long
// query (its worker stops), a new query superseding one under way, the result cut at
// 100,000 rows, result rows shown on the timeline (their event, or their range), the keys,
// the history, the table list and the examples; then a second report and the report followed.
class QueryPanelTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;
    QueryPanel* panel_ = nullptr;
    ViewSession* session_ = nullptr;

    const Report& report() const { return *session_->reports()[0]; }
    const QueryResult& result() const { return panel_->model()->result(); }
    bool open(const std::string& file) {
        bool done = false, ok = false;
        window_->setAllLoadedCallback([&](bool allOk) {
            done = true;
            ok = allOk;
        });
        window_->openFiles({QString::fromStdString(test::dataFile(file).string())});
        const bool loaded = QTest::qWaitFor([&] { return done; }, 30000);
        window_->setAllLoadedCallback({});  // done and ok end here: a later load must not reach them
        return loaded && ok;
    }
    // Runs `sql` and waits until its result or error is shown and the worker is done.
    bool run(const QString& sql) {
        panel_->editor()->setPlainText(sql);
        panel_->run();
        return QTest::qWaitFor([&] { return !panel_->running() && !panel_->busy(); }, 20000);
    }
    int64_t integer(size_t row, size_t column) const {
        int64_t v = -1;
        return result().asInteger(row, column, v) ? v : -1;
    }
    void click(int row) {
        const QRect cell = panel_->view()->visualRect(panel_->model()->index(row, 0));
        QVERIFY(cell.isValid());
        QTest::mouseClick(panel_->view()->viewport(), Qt::LeftButton, {}, cell.center());
    }
    // A view far from every event, so that showing one must move it.
    void lookElsewhere() {
        const auto [begin, end] = session_->wholeRange();
        session_->zoomTo(begin, begin + 1000);
        session_->setSelectedRange(std::nullopt);
        session_->selectEvent(std::nullopt);
    }
    bool visible(int64_t t) const {
        const auto [begin, end] = session_->visibleRange();
        return begin <= t && t <= end;
    }

private slots:
    void initTestCase() {
        QueryHistory::clear();
        window_ = std::make_unique<MainWindow>();
        window_->resize(1400, 900);
        window_->show();
        session_ = window_->session();
        panel_ = window_->findChild<QueryPanel*>();
        QVERIFY(panel_);
        // View > Query (SQL), by its shortcut.
        QAction* show = nullptr;
        for (QAction* a : window_->findChildren<QAction*>())
            if (a->shortcut() == QKeySequence("Ctrl+Shift+Q")) show = a;
        QVERIFY(show);
        show->trigger();
        QVERIFY(QTest::qWaitFor([&] { return panel_->isVisible(); }, 5000));
        QCOMPARE(panel_->statusText(), QString("No report open"));
        QVERIFY(open("nsys-2025.3/train_1gpu.sqlite"));
        QCOMPARE(panel_->currentReport(), 0);
    }

    void aQueryListsTheModelsKernels() {
        QVERIFY(run("SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL"));
        const uint64_t kernels = finishedCounts(report()).kernels;
        QVERIFY(kernels > 1000);
        QCOMPARE(uint64_t(panel_->model()->rowCount()), kernels);
        QVERIFY(!panel_->statusIsError());
        QVERIFY2(panel_->statusText().startsWith(QLocale().toString(qulonglong(kernels)) + " rows in "),
                 qPrintable(panel_->statusText()));
        QVERIFY(panel_->statusText().endsWith("train_1gpu.sqlite"));
        QCOMPARE(panel_->model()->headerData(0, Qt::Horizontal, Qt::DisplayRole).toString(), QString("start"));
        // Numbers right-aligned, NULL written so and greyed (graphNodeId is NULL in this report).
        const QModelIndex start = panel_->model()->index(0, 0);
        QVERIFY(start.data(Qt::TextAlignmentRole).value<Qt::Alignment>() & Qt::AlignRight);
        const int node = int(std::find(result().columns().begin(), result().columns().end(), "graphNodeId") -
                             result().columns().begin());
        const QModelIndex null = panel_->model()->index(0, node);
        QCOMPARE(null.data().toString(), QString("NULL"));
        QVERIFY(null.data(Qt::ForegroundRole).isValid());
        QVERIFY(!start.data(Qt::ForegroundRole).isValid());

        QVERIFY(run("SELECT count(*) AS kernels FROM CUPTI_ACTIVITY_KIND_KERNEL"));
        QCOMPARE(panel_->model()->rowCount(), 1);
        QCOMPARE(uint64_t(integer(0, 0)), kernels);
        QVERIFY(panel_->statusText().startsWith("1 row in "));
    }

    void aBadQuerySaysWhyInRed() {
        QVERIFY(run("SELEC start FROM CUPTI_ACTIVITY_KIND_KERNEL"));
        QVERIFY(panel_->statusIsError());
        QCOMPARE(panel_->statusText(), QString("near \"SELEC\": syntax error"));
        QCOMPARE(panel_->model()->rowCount(), 0);
        QVERIFY(!QApplication::activeModalWidget());
        QVERIFY(run("SELECT nosuchcolumn FROM CUPTI_ACTIVITY_KIND_KERNEL"));
        QCOMPARE(panel_->statusText(), QString("no such column: nosuchcolumn"));
        QVERIFY(run("DELETE FROM StringIds"));  // read-only
        QVERIFY(panel_->statusIsError());
        QVERIFY(run("SELECT 1"));  // and the panel goes on
        QVERIFY(!panel_->statusIsError());
        QCOMPARE(integer(0, 0), 1);
    }

    void escCancelsALongQueryAndItsWorkerStops() {
        QVERIFY(run("SELECT 2"));
        panel_->editor()->setPlainText(
            "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME a, CUPTI_ACTIVITY_KIND_RUNTIME b, "
            "CUPTI_ACTIVITY_KIND_RUNTIME c");
        panel_->editor()->setFocus();
        QTest::keyClick(panel_->editor(), Qt::Key_Return, Qt::ControlModifier);
        QVERIFY(panel_->running());
        QTest::qWait(300);
        QVERIFY(panel_->running() && panel_->busy());
        QVERIFY(panel_->statusText().startsWith("Running on train_1gpu.sqlite"));
        QTest::keyClick(panel_->editor(), Qt::Key_Escape);
        QVERIFY(!panel_->running());
        QVERIFY(panel_->statusText().startsWith("Cancelled after "));
        QVERIFY(QTest::qWaitFor([&] { return !panel_->busy(); }, 5000));  // the worker returned
        QCOMPARE(integer(0, 0), 2);                                       // the rows shown before stay
        QVERIFY(panel_->statusText().startsWith("Cancelled after "));
    }

    void aNewQueryStopsTheOneUnderWay() {
        panel_->editor()->setPlainText(
            "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME a, CUPTI_ACTIVITY_KIND_RUNTIME b, "
            "CUPTI_ACTIVITY_KIND_RUNTIME c");
        panel_->run();
        QTest::qWait(200);
        QVERIFY(panel_->running());
        QVERIFY(run("SELECT 3"));  // waits for both workers
        QCOMPARE(integer(0, 0), 3);
        QVERIFY(!panel_->statusIsError());
    }

    void aHugeResultIsCut() {
        QVERIFY(run("SELECT a.start, b.end FROM CUPTI_ACTIVITY_KIND_RUNTIME a, CUPTI_ACTIVITY_KIND_RUNTIME b"));
        QCOMPARE(size_t(panel_->model()->rowCount()), QueryResult::kMaxRows);
        QVERIFY(result().cut());
        QVERIFY2(panel_->statusText().startsWith("The first 100,000 rows (the result has more"),
                 qPrintable(panel_->statusText()));
        QVERIFY(run("SELECT start FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
        QVERIFY(!result().cut());
    }

    void aClickShowsTheRowsKernelOnTheTimeline() {
        QVERIFY(
            run("SELECT k.start, k.end, k.deviceId, k.streamId, s.value AS kernel "
                "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName "
                "ORDER BY k.end - k.start DESC LIMIT 10"));
        QCOMPARE(panel_->model()->rowCount(), 10);
        lookElsewhere();
        const int64_t start = integer(2, 0), end = integer(2, 1);
        QVERIFY(!visible(start));
        click(2);
        QVERIFY(visible(start) && visible(end));
        const std::optional<ViewEvent> event = session_->selectedEvent();
        QVERIFY(event);
        QCOMPARE(event->report, 0);
        const Lane& lane = report().lanes[event->lane];
        QVERIFY(lane.kind == LaneKind::GpuStream);
        QCOMPARE(lane.stream_id, integer(2, 3));
        QCOMPARE(lane.events.start_ns[event->event], start);
        QCOMPARE(lane.events.endNs(event->event), end);
    }

    void aClickShowsTheRowsCallOnItsThread() {
        QVERIFY(run("SELECT start, end, globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME ORDER BY end - start DESC LIMIT 3"));
        lookElsewhere();
        click(0);
        QVERIFY(visible(integer(0, 0)) && visible(integer(0, 1)));
        const std::optional<ViewEvent> event = session_->selectedEvent();
        QVERIFY(event);
        const Lane& lane = report().lanes[event->lane];
        QVERIFY(lane.kind == LaneKind::CudaApi);
        QCOMPARE(sql::globalTidOf(report(), lane.thread), std::optional<int64_t>(integer(0, 2)));
        QCOMPARE(lane.events.start_ns[event->event], integer(0, 0));
    }

    void aRowsLaneIdNamesItsLane() {
        uint32_t stream = 0;
        while (report().lanes[stream].kind != LaneKind::GpuStream) ++stream;
        const Lane& lane = report().lanes[stream];
        const uint32_t last = uint32_t(lane.events.size() - 1);
        QVERIFY(run(QString("SELECT %1 AS laneId, %2 AS start, %3 AS end")
                        .arg(stream)
                        .arg(lane.events.start_ns[last])
                        .arg(lane.events.endNs(last))));
        lookElsewhere();
        click(0);
        QVERIFY(session_->selectedEvent() == (ViewEvent{0, stream, last}));
        QVERIFY(visible(lane.events.start_ns[last]));
    }

    void aClickOnARowWithOnlyATimeRangeZoomsToIt() {
        QVERIFY(
            run("SELECT min(start) AS start, max(end) AS end, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL "
                "WHERE start < (SELECT min(start) + 5000000 FROM CUPTI_ACTIVITY_KIND_KERNEL)"));
        lookElsewhere();
        const int64_t start = integer(0, 0), end = integer(0, 1);
        QVERIFY(end > start);
        // Enter on the current row does what a click does.
        panel_->view()->setFocus();
        panel_->view()->setCurrentIndex(panel_->model()->index(0, 0));
        QTest::keyClick(panel_->view(), Qt::Key_Return);
        QCOMPARE(session_->selectedRange(), std::optional<TimeInterval>(TimeInterval{start, end}));
        QVERIFY(visible(start) && visible(end));
        QVERIFY(!session_->selectedEvent());
    }

    void theHistoryIsNewestFirstWithoutRepeatsAndBounded() {
        QueryHistory::clear();
        QVERIFY(run("SELECT 1"));
        QVERIFY(run("SELECT 2"));
        QVERIFY(run("  SELECT 1\n"));  // the same query again moves to the front
        QCOMPARE(QueryHistory::queries(), QStringList({"SELECT 1", "SELECT 2"}));
        for (int i = 0; i < QueryHistory::kMaxQueries + 10; ++i) QueryHistory::add(QString("SELECT %1").arg(i + 100));
        QCOMPARE(QueryHistory::queries().size(), QueryHistory::kMaxQueries);
        QCOMPARE(QueryHistory::queries().front(), QString("SELECT %1").arg(QueryHistory::kMaxQueries + 109));
        // The History menu lists them; picking one puts it into the editor.
        auto* history = panel_->findChild<QToolButton*>("queryHistory");
        QVERIFY(history);
        emit history->menu()->aboutToShow();
        const QList<QAction*> entries = history->menu()->actions();
        QCOMPARE(entries.front()->text(), QueryHistory::queries().front());
        entries.at(1)->trigger();
        QCOMPARE(panel_->editor()->toPlainText(), QueryHistory::queries().at(1));
    }

    void theTableListHasEveryTableAndTypesNames() {
        QVERIFY(QTest::qWaitFor([&] { return !panel_->busy(); }, 20000));
        auto* tables = panel_->findChild<TableList*>();
        QVERIFY(tables);
        std::string error;
        const auto sql = sql::ReportSql::open(report(), error);
        QVERIFY(sql);
        QCOMPARE(size_t(tables->topLevelItemCount()), sql->tableNames().size());
        QTreeWidgetItem* kernels = nullptr;
        for (int i = 0; i < tables->topLevelItemCount(); ++i)
            if (tables->topLevelItem(i)->text(0) == "CUPTI_ACTIVITY_KIND_KERNEL") kernels = tables->topLevelItem(i);
        QVERIFY(kernels);
        QVERIFY(kernels->childCount() > 20);
        QCOMPARE(kernels->child(0)->text(0), QString("start"));
        QCOMPARE(kernels->child(5)->text(0), QString("streamId"));
        panel_->editor()->setPlainText("SELECT count(*) FROM ");
        panel_->editor()->moveCursor(QTextCursor::End);
        emit tables->itemDoubleClicked(kernels, 0);
        QCOMPARE(panel_->editor()->toPlainText(), QString("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    }

    void everyExampleOfferedRunsOnThisReport() {
        auto* examples = panel_->findChild<QToolButton*>("queryExamples");
        QVERIFY(examples);
        emit examples->menu()->aboutToShow();
        const QList<QAction*> actions = examples->menu()->actions();
        QVERIFY(actions.size() >= 7);
        int offered = 0;
        for (QAction* a : actions) {
            if (!a->isEnabled()) continue;
            ++offered;
            a->trigger();
            QVERIFY(QTest::qWaitFor([&] { return !panel_->running() && !panel_->busy(); }, 20000));
            QVERIFY2(!panel_->statusIsError(), qPrintable(a->text() + ": " + panel_->statusText()));
            QVERIFY2(panel_->model()->rowCount() > 0, qPrintable(a->text()));
        }
        QCOMPARE(offered, int(actions.size()));  // this report has kernels, calls, NVTX, copies, OS calls
    }

    void copyPutsTheSelectedRowsOnTheClipboard() {
        QVERIFY(run("SELECT 1 AS a, NULL AS b, 'x' AS c UNION ALL SELECT 2, 3, 'y'"));
        panel_->view()->selectRow(1);
        panel_->view()->setFocus();
        QTest::keyClick(panel_->view(), Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(QApplication::clipboard()->text(), QString("a\tb\tc\n2\t3\ty"));
        panel_->view()->clearSelection();
        QTest::keyClick(panel_->view(), Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(QApplication::clipboard()->text(), QString("a\tb\tc\n1\t\tx\n2\t3\ty"));
    }

    void withTwoReportsItQueriesTheSelectedEventsReport() {
        QVERIFY(open("nsys-2025.3/cpu_1gpu.sqlite"));
        QCOMPARE(session_->reports().size(), size_t(2));
        QCOMPARE(panel_->currentReport(), 1);  // the newest
        QVERIFY(run("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
        QVERIFY(panel_->statusText().endsWith("cpu_1gpu.sqlite"));
        QCOMPARE(uint64_t(integer(0, 0)), finishedCounts(*session_->reports()[1]).kernels);
        // An event selected in the first report: the panel follows it.
        uint32_t stream = 0;
        while (report().lanes[stream].kind != LaneKind::GpuStream || report().lanes[stream].events.size() == 0)
            ++stream;
        session_->selectEvent(ViewEvent{0, stream, 0});
        QCOMPARE(panel_->currentReport(), 0);
        QVERIFY(run("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
        QCOMPARE(uint64_t(integer(0, 0)), finishedCounts(report()).kernels);
        QVERIFY(panel_->statusText().endsWith("train_1gpu.sqlite"));
        // Closing both while a query runs: it stops, and the rows go with their report.
        panel_->editor()->setPlainText(
            "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME a, CUPTI_ACTIVITY_KIND_RUNTIME b, "
            "CUPTI_ACTIVITY_KIND_RUNTIME c");
        panel_->run();
        QVERIFY(panel_->running());
        session_->closeAll();
        QVERIFY(!panel_->running());
        QVERIFY(QTest::qWaitFor([&] { return !panel_->busy(); }, 5000));
        QCOMPARE(panel_->currentReport(), -1);
        QCOMPARE(panel_->model()->rowCount(), 0);
        QCOMPARE(panel_->statusText(), QString("No report open"));
    }

    void cleanupTestCase() { window_.reset(); }
};

int runQueryPanelTest(int argc, char** argv) {
    return runGuiTest<QueryPanelTest>(argc, argv, "QueryPanelTest", "gui_query_tests");
}

#include "QueryPanelTest.moc"
