#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QTest>
#include <algorithm>
#include <set>
#include <string>

#include "GuiTestMain.h"
#include "RaiseDock.h"
#include "TestPaths.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ViewSession.h"
#include "app/gui/panels/pytorch/MemoryChart.h"
#include "app/gui/panels/pytorch/PytorchPanel.h"
#include "app/gui/panels/pytorch/StepChart.h"
#include "app/gui/panels/tables/StatsTableView.h"

using namespace lanescope;

// The PyTorch panel in the real window, offscreen, on the PyTorch 2.11 trace of tests/data (steps,
// shapes, memory, stacks, modules): its tabs computed off the GUI thread when shown, their rows
// against the distinct names in the model's lanes, a row clicked showing its longest instance on
// the timeline, numeric sorting; then a CPU-only trace opened beside it, picked, and its tabs
// saying what it lacks.
class PytorchPanelTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;
    PytorchPanel* panel_ = nullptr;
    ViewSession* session_ = nullptr;

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
    bool ready() {
        return QTest::qWaitFor([&] { return panel_->ready(); }, 20000);
    }
    // The names of the events of `kind` in lanes for which `wanted` holds, on report `r`.
    template <typename Wanted>
    std::set<std::string> eventNames(int r, Wanted wanted) const {
        const Report& report = *session_->reports()[size_t(r)];
        std::set<std::string> names;
        for (const Lane& lane : report.lanes)
            for (size_t i = 0; i < lane.events.size(); ++i)
                if (wanted(lane, i)) names.emplace(report.strings.str(lane.events.name_id[i]));
        return names;
    }
    // Clicks the view row showing table row `tableRow` of `view`.
    static void clickTableRow(StatsTableView* view, int tableRow) {
        for (int r = 0; r < view->view()->model()->rowCount(); ++r)
            if (view->tableRow(r) == tableRow) {
                const QRect cell = view->view()->visualRect(view->view()->model()->index(r, 0));
                QTest::mouseClick(view->view()->viewport(), Qt::LeftButton, {}, cell.center());
                return;
            }
        QFAIL("row not shown");
    }
    // The selected event: its name and duration, and whether it is the longest of its name in lanes
    // for which `wanted` holds.
    template <typename Wanted>
    void checkLongestSelected(const std::string& name, Wanted wanted) {
        QVERIFY(QTest::qWaitFor([&] { return session_->selectedEvent().has_value(); }, 5000));
        const ViewEvent picked = *session_->selectedEvent();
        const Report& report = *session_->reports()[size_t(picked.report)];
        const Lane& lane = report.lanes[picked.lane];
        QCOMPARE(std::string(report.strings.str(lane.events.name_id[picked.event])), name);
        QVERIFY(wanted(lane, picked.event));
        int64_t longest = 0;
        for (const Lane& l : report.lanes)
            for (size_t i = 0; i < l.events.size(); ++i)
                if (wanted(l, i) && report.strings.str(l.events.name_id[i]) == name)
                    longest = std::max(longest, l.events.durationNs(i));
        QCOMPARE(lane.events.durationNs(picked.event), longest);
    }

    static bool isOperator(const Report& report, const Lane& lane) {
        return lane.kind == LaneKind::Nvtx && report.strings.str(lane.name_id) == kPytorchOperatorLaneName;
    }

private slots:
    void initTestCase() {
        window_ = std::make_unique<MainWindow>();
        window_->resize(1400, 900);
        window_->show();
        session_ = window_->session();
        panel_ = window_->findChild<PytorchPanel*>();
        QVERIFY(panel_);
        QAction* show = nullptr;
        for (QAction* a : window_->findChildren<QAction*>())
            if (a->shortcut() == QKeySequence("Ctrl+Shift+P")) show = a;
        QVERIFY(show);
        QVERIFY(open("kineto/pytorch_profiled_gpu.pt.trace.json.gz"));
        show->trigger();
        QVERIFY(QTest::qWaitFor([&] { return panel_->isVisible(); }, 5000));
    }

    void theOverviewOpensFirstWithABarPerStep() {
        QVERIFY(ready());
        const StatsTable& steps = panel_->table("overview");
        QCOMPARE(steps.rows.size(), size_t(6));  // ProfilerStep#2..#7
        QCOMPARE(formatCell(steps.rows.front()[0]), std::string("ProfilerStep#2"));
        QCOMPARE(panel_->stepChart()->barCount(), 6);
        QVERIFY2(panel_->summaryText("overview").contains("Slowest"), qPrintable(panel_->summaryText("overview")));
        // A bar clicked selects its step's span.
        emit panel_->stepChart()->stepClicked(3);
        const auto selected = session_->selectedRange();
        QVERIFY(selected.has_value());
        const int64_t start = std::get<int64_t>(steps.rows[3][1]), duration = std::get<int64_t>(steps.rows[3][2]);
        QCOMPARE(selected->first, start);
        QCOMPARE(selected->second, start + duration);
    }

    void theOperatorsTabHasOneRowPerOperatorName() {
        panel_->showView("operators");
        QVERIFY(ready());
        const Report& report = *session_->reports()[0];
        const auto operators = eventNames(0, [&](const Lane& lane, size_t) { return isOperator(report, lane); });
        QVERIFY(operators.size() > 30);
        const StatsTable& table = panel_->table("operators");
        QCOMPARE(table.rows.size(), operators.size());
        QCOMPARE(table.header.front(), std::string("Name"));
        std::set<std::string> shown;
        for (const auto& row : table.rows) shown.insert(std::get<std::string>(row[0]));
        QVERIFY(shown == operators);
        QVERIFY(panel_->missingText("operators").isEmpty());  // GPU work recorded: nothing missing
    }

    void clickingAnOperatorShowsItsLongestInstance() {
        const StatsTable& table = panel_->table("operators");
        int conv = -1;
        for (size_t r = 0; r < table.rows.size(); ++r)
            if (std::get<std::string>(table.rows[r][0]) == "aten::conv2d") conv = int(r);
        QVERIFY(conv >= 0);
        session_->selectEvent(std::nullopt);
        clickTableRow(panel_->tableView("operators"), conv);
        const Report& report = *session_->reports()[0];
        checkLongestSelected("aten::conv2d", [&](const Lane& lane, size_t) { return isOperator(report, lane); });
    }

    void theOperatorsGroupByCallStackAndShapes() {
        const StatsTable byName = panel_->table("operators");
        panel_->showView("operators-by-stack");
        QVERIFY(ready());
        const StatsTable& byStack = panel_->table("operators-by-stack");
        QCOMPARE(byStack.header.at(1), std::string("Call Stack"));
        QVERIFY(byStack.rows.size() > byName.rows.size());
        int64_t calls = 0, expected = 0;
        for (const auto& row : byStack.rows) calls += std::get<int64_t>(row[2]);
        for (const auto& row : byName.rows) expected += std::get<int64_t>(row[1]);
        QCOMPARE(calls, expected);
        panel_->showView("operators-by-shapes");
        QVERIFY(ready());
        const StatsTable& byShapes = panel_->table("operators-by-shapes");
        QCOMPARE(byShapes.header.at(1), std::string("Input Shapes"));
        QVERIFY(byShapes.rows.size() > byName.rows.size());
        panel_->showView("operators");
        QVERIFY(ready());
        QCOMPARE(panel_->table("operators").rows.size(), byName.rows.size());
    }

    void theKernelsTabComputesWhenPickedAndShowsKernels() {
        QVERIFY(panel_->table("kernels").rows.empty());  // not computed before it is shown
        panel_->showView("kernels");
        QVERIFY(ready());
        auto isKernel = [](const Lane& lane, size_t i) {
            return lane.kind == LaneKind::GpuStream && lane.events.kind[i] == EventKind::Kernel;
        };
        const auto kernels = eventNames(0, isKernel);
        const StatsTable& table = panel_->table("kernels");
        QCOMPARE(table.rows.size(), kernels.size());
        const std::string last = std::get<std::string>(table.rows.back()[0]);
        session_->selectEvent(std::nullopt);
        clickTableRow(panel_->tableView("kernels"), int(table.rows.size()) - 1);
        checkLongestSelected(last, isKernel);
    }

    void aHeaderClickSortsNumbersAsNumbers() {
        StatsTableView* kernels = panel_->tableView("kernels");
        const int calls = 1;
        QCOMPARE(kernels->view()->model()->headerData(calls, Qt::Horizontal).toString(), QString("Calls"));
        kernels->view()->sortByColumn(calls, Qt::DescendingOrder);
        const auto* model = kernels->view()->model();
        for (int r = 1; r < model->rowCount(); ++r)
            QVERIFY(model->index(r - 1, calls).data().toLongLong() >= model->index(r, calls).data().toLongLong());
        QVERIFY(model->index(0, calls).data().toLongLong() >
                model->index(model->rowCount() - 1, calls).data().toLongLong());
        kernels->view()->sortByColumn(-1, Qt::AscendingOrder);  // back to the view's own order
        QCOMPARE(kernels->tableRow(0), 0);
    }

    void theMemoryTabDrawsEachDevicesCurvesAndShowsAnAllocation() {
        panel_->showView("memory");
        QVERIFY(ready());
        const Report& report = *session_->reports()[0];
        QVERIFY(report.pytorch_memory.size() > 500);
        int64_t allocations = 0;
        for (const PytorchMemoryEvent& e : report.pytorch_memory) allocations += e.bytes > 0;
        QCOMPARE(int64_t(panel_->table("memory").rows.size()), allocations);
        QVERIFY(panel_->memoryChart()->pointCount() > 100);
        // A viewer's row limit: the view builds only the rows shown, and counts them all.
        const PytorchViewResult firstRows = findPytorchView("memory")->compute(report, 10);
        QCOMPARE(firstRows.tables.front().rows.size(), size_t(10));
        QCOMPARE(int64_t(firstRows.mainRows), allocations);
        StatsTableView cut;
        cut.setTable(firstRows.tables.front());
        cut.setWhole(firstRows.mainRows, [] { return StatsTable{}; });
        QCOMPARE(int64_t(cut.wholeRows()), allocations);
        QCOMPARE(int64_t(cut.hiddenRows()), allocations - 10);
        cut.setTable(firstRows.tables.front());  // a new table is whole again
        QCOMPARE(cut.hiddenRows(), size_t(0));
        QVERIFY2(panel_->summaryText("memory").contains("CUDA 0"), qPrintable(panel_->summaryText("memory")));
        session_->setSelectedRange(std::nullopt);
        clickTableRow(panel_->tableView("memory"), 0);
        const auto selected = session_->selectedRange();
        QVERIFY(selected.has_value());
        const auto first = std::find_if(report.pytorch_memory.begin(), report.pytorch_memory.end(),
                                        [](const PytorchMemoryEvent& e) { return e.bytes > 0; });
        QCOMPARE(selected->first, first->time_ns);  // the first allocation's lifetime
        QVERIFY(selected->second >= selected->first);
    }

    void aModuleRowShowsItsCalls() {
        panel_->showView("modules");
        QVERIFY(ready());
        const StatsTable& modules = panel_->table("modules");
        QVERIFY(modules.rows.size() >= 9);  // Net_0 and the modules under it
        QCOMPARE(formatCell(modules.rows.front()[0]), std::string("Net_0"));
        session_->selectEvent(std::nullopt);
        clickTableRow(panel_->tableView("modules"), 0);
        QVERIFY(QTest::qWaitFor([&] { return session_->selectedEvent().has_value(); }, 5000));
        const ViewEvent picked = *session_->selectedEvent();
        const Report& report = *session_->reports()[0];
        QCOMPARE(std::string(report.strings.str(report.lanes[picked.lane].events.name_id[picked.event])),
                 std::string("nn.Module: Net_0"));
    }

    void aCpuOnlyTraceSaysWhatItLacks() {
        QVERIFY(open("kineto/pytorch_profiled_cpu.pt.trace.json"));
        QCOMPARE(session_->reports().size(), size_t(2));
        raiseDockOf(panel_);  // a second report brings the Ranks panel to the front
        panel_->showView("kernels");
        QVERIFY(ready());  // of the report opened last
        QVERIFY(panel_->table("kernels").rows.empty());
        QVERIFY2(panel_->missingText("kernels").contains("no GPU kernels"), qPrintable(panel_->missingText("kernels")));
        panel_->showView("operators");
        QVERIFY(ready());
        QVERIFY(!panel_->table("operators").rows.empty());
        QVERIFY2(panel_->missingText("operators").contains("no GPU work"),
                 qPrintable(panel_->missingText("operators")));
        for (const char* view : {"memory", "modules", "overview"}) {
            panel_->showView(view);
            QVERIFY(ready());
            QVERIFY2(!panel_->missingText(view).isEmpty(), view);
        }
        QVERIFY(panel_->table("memory").rows.empty());
        QCOMPARE(panel_->memoryChart()->pointCount(), 0);
        QCOMPARE(panel_->table("overview").rows.size(), size_t(1));  // no steps: the whole trace
    }
};

int runPytorchPanelTest(int argc, char** argv) {
    return runGuiTest<PytorchPanelTest>(argc, argv, "PytorchPanelTest", "gui_pytorch_tests");
}

#include "PytorchPanelTest.moc"
