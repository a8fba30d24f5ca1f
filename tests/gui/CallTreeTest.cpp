#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QLineEdit>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <random>

#include "GuiTestMain.h"
#include "RaiseDock.h"
#include "TestPaths.h"
#include "analysis/CpuProfile.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ViewSession.h"
#include "app/gui/panels/calltree/CallTreeModel.h"
#include "app/gui/panels/calltree/CallTreePanel.h"
#include "app/gui/panels/calltree/CallTreeView.h"
#include "app/gui/panels/calltree/FlameGraph.h"
#include "app/log/Logging.h"
#include "support/TinyReport.h"

using namespace lanescope;

// The Call tree panel in the real window, offscreen, on the nsys 2025.3 capture with CPU samples
// (cpu_1gpu.sqlite): what each view shows equals analysis/CpuProfile over the same selection.
class CallTreeTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;
    CallTreePanel* panel_ = nullptr;
    std::shared_ptr<const Report> report_;

    bool open(const std::filesystem::path& path) {
        bool done = false, ok = false;
        window_->setAllLoadedCallback([&](bool allOk) {
            done = true;
            ok = allOk;
        });
        window_->openFiles({QString::fromStdString(path.string())});
        const bool loaded = QTest::qWaitFor([&] { return done; }, 30000);
        window_->setAllLoadedCallback({});  // done and ok end here: a later load must not reach them
        return loaded && ok;
    }
    // As a user does it: a click, then the second press that makes it a double-click.
    static void doubleClick(QWidget* w, QPoint at) {
        QTest::mouseClick(w, Qt::LeftButton, {}, at);
        QTest::mouseDClick(w, Qt::LeftButton, {}, at);
    }
    bool settled() {
        return QTest::qWaitFor([&] { return !panel_->busy(); }, 20000);
    }

    // The rows of a view's top level: (frame, self, total).
    static std::vector<std::tuple<uint32_t, uint64_t, uint64_t>> topLevel(const CallTreeModel* m) {
        std::vector<std::tuple<uint32_t, uint64_t, uint64_t>> rows;
        for (int r = 0; r < m->rowCount(); ++r)
            rows.emplace_back(m->index(r, 0).data(CallTreeModel::kFrameRole).toUInt(),
                              m->index(r, CallTreeModel::Self).data(CallTreeModel::kValueRole).toULongLong(),
                              m->index(r, CallTreeModel::Total).data(CallTreeModel::kValueRole).toULongLong());
        return rows;
    }
    static std::vector<std::tuple<uint32_t, uint64_t, uint64_t>> depthZero(const std::vector<CallTreeRow>& tree) {
        std::vector<std::tuple<uint32_t, uint64_t, uint64_t>> rows;
        for (const CallTreeRow& row : tree)
            if (row.depth == 0) rows.emplace_back(row.frame, row.self, row.total);
        return rows;
    }
    std::pair<int64_t, int64_t> sampleSpan() const {
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (const Lane& lane : report_->lanes)
            if (lane.kind == LaneKind::CpuSamples && lane.instants.size()) {
                lo = std::min(lo, lane.instants.time_ns.front());
                hi = std::max(hi, lane.instants.time_ns.back());
            }
        return {lo, hi};
    }
    void checkAgainst(const SampleSelection& selection) {
        const StackCounts counts = countSamples(*report_, selection);
        QVERIFY(counts.samples > 0);
        QCOMPARE(panel_->model(CallTreePanel::TopDown)->tree().samples, counts.samples);
        QVERIFY(topLevel(panel_->model(CallTreePanel::TopDown)) == depthZero(topDownTree(*report_, counts)));
        QVERIFY(topLevel(panel_->model(CallTreePanel::BottomUp)) == depthZero(bottomUpTree(*report_, counts)));
        const auto flat = flatProfile(*report_, counts);
        QVERIFY(topLevel(panel_->model(CallTreePanel::Flat)).front() ==
                std::tuple(flat.front().frame, flat.front().self, flat.front().total));
        QCOMPARE(panel_->flameGraph()->rootSamples(), counts.samples);
        QCOMPARE(panel_->model(CallTreePanel::TopDown)->tree().samples, counts.samples);
    }

    // See aMillionSamplesKeepTheWindowResponsive.
    static Report millionSamples() {
        test::TinyReport t;
        std::mt19937 rng(7);
        CallStacks& s = t.r.stacks;
        for (int f = 0; f < 3000; ++f) {
            s.frame_function.push_back(t.r.strings.intern("fn_" + std::to_string(f)));
            s.frame_module.push_back(t.r.strings.intern("/usr/lib/libmodule" + std::to_string(f % 20) + ".so"));
        }
        for (uint32_t n = 0; n < 30000; ++n) {
            // Half the nodes call on from the one before (deep stacks), half from any earlier.
            s.node_parent.push_back(n < 20 ? kNoStack : rng() % 2 ? n - 1 : uint32_t(rng() % n));
            s.node_frame.push_back(uint32_t(rng() % 3000));
        }
        const int32_t process = t.process(1000, "synthetic");
        for (int th = 0; th < 8; ++th) {
            const uint32_t lane =
                t.cpuLane(LaneKind::CpuSamples, t.thread(process, 1000 + th, "worker"), "CPU samples");
            InstantColumns& in = t.r.lanes[lane].instants;
            for (int i = 0; i < 125000; ++i) {
                const uint32_t stack = uint32_t(rng() % 30000);
                in.time_ns.push_back(int64_t(i) * 8000 + th * 1000);
                in.name_id.push_back(s.frame_function[s.node_frame[stack]]);
                in.payload.push_back(stack);
            }
        }
        t.freeze();
        t.r.meta.format = "synthetic";
        t.r.meta.source_path = "million_samples";
        t.r.meta.end_ns = 125000LL * 8000;
        return std::move(t.r);
    }

private slots:
    void initTestCase() {
        window_ = std::make_unique<MainWindow>();
        window_->resize(1400, 900);
        window_->show();
        panel_ = window_->findChild<CallTreePanel*>();
        raiseDockOf(panel_);
        QVERIFY(panel_);
        QVERIFY(open(test::dataFile("nsys-2025.3/cpu_1gpu.sqlite")));
        report_ = window_->session()->reports().at(0);
        QVERIFY(settled());
    }

    void theViewMenuShowsThePanel() {
        auto* dock = window_->findChild<QDockWidget*>("callTree");
        QVERIFY(dock);
        QCOMPARE(dock->windowTitle(), QString("Call tree"));
        QTest::keyClick(window_.get(), Qt::Key_T, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY(panel_->isVisible());
    }

    void theWholeReportEqualsTheAnalysis() {
        checkAgainst({});
        // The top-down tree opens along its hottest path.
        CallTreeView* tree = panel_->treeView(CallTreePanel::TopDown);
        QVERIFY(tree->isExpanded(tree->model()->index(0, 0)));
        QVERIFY(tree->currentIndex().isValid());
    }

    void theFlatViewStartsWithTheAnalysisFirstRowAndSorts() {
        panel_->setView(CallTreePanel::Flat);
        QCOMPARE(panel_->view(), CallTreePanel::Flat);
        const auto flat = flatProfile(*report_, countSamples(*report_, {}));
        const CallTreeModel* m = panel_->model(CallTreePanel::Flat);
        QCOMPARE(m->rowCount(), int(flat.size()));
        QCOMPARE(m->index(0, CallTreeModel::Self).data(CallTreeModel::kValueRole).toULongLong(), flat[0].self);
        QCOMPARE(m->index(0, CallTreeModel::Total).data(CallTreeModel::kValueRole).toULongLong(), flat[0].total);
        // Sorted by Total, descending: the largest Total first.
        CallTreeView* view = panel_->treeView(CallTreePanel::Flat);
        view->sortByColumn(CallTreeModel::Total, Qt::DescendingOrder);
        uint64_t most = 0;
        for (const FlatProfileRow& row : flat) most = std::max(most, row.total);
        QCOMPARE(m->index(0, CallTreeModel::Total).data(CallTreeModel::kValueRole).toULongLong(), most);
        view->sortByColumn(CallTreeModel::Function, Qt::AscendingOrder);
        for (int r = 1; r < m->rowCount(); ++r)
            QVERIFY(m->functionName(m->nodeOf(m->index(r - 1, 0))).toStdString() <=
                    m->functionName(m->nodeOf(m->index(r, 0))).toStdString());
        view->sortByColumn(CallTreeModel::Self, Qt::DescendingOrder);
        QCOMPARE(m->index(0, 0).data(CallTreeModel::kFrameRole).toUInt(), flat[0].frame);
    }

    void aSelectedRangeCountsItsSamplesOnly() {
        const auto [lo, hi] = sampleSpan();
        SampleSelection middle;
        middle.range = {lo + (hi - lo) / 3, lo + 2 * (hi - lo) / 3};
        window_->session()->setSelectedRange(TimeInterval{middle.range.begin_ns, middle.range.end_ns});
        QVERIFY(settled());
        checkAgainst(middle);
        QVERIFY(countSamples(*report_, middle).samples < countSamples(*report_, {}).samples);
        window_->session()->setSelectedRange(std::nullopt);
        QVERIFY(settled());
        checkAgainst({});
    }

    void theThreadPickerRestrictsToOneThread() {
        QComboBox* threads = panel_->threadPicker();
        QVERIFY(threads->count() >= 2);
        // A thread entry (indented under its process) and a process entry.
        int worker = -1, process = -1;
        for (int i = 1; i < threads->count(); ++i) {
            if (threads->itemText(i).startsWith("    ") && threads->itemText(i).contains("(484)")) worker = i;
            if (threads->itemText(i).contains("(484): all threads")) process = i;
        }
        QVERIFY(worker > 0 && process > 0);
        threads->setCurrentIndex(process);
        QVERIFY(settled());
        SampleSelection workers;
        workers.pids = {484};
        checkAgainst(workers);
        threads->setCurrentIndex(worker);
        QVERIFY(settled());
        SampleSelection one;
        one.tids = {484};
        checkAgainst(one);
        QVERIFY(countSamples(*report_, one).samples < countSamples(*report_, {}).samples);
        threads->setCurrentIndex(0);
        QVERIFY(settled());
        checkAgainst({});
    }

    void searchFiltersAndHighlights() {
        const CallTreeModel* flat = panel_->model(CallTreePanel::Flat);
        const QString name = flat->functionName(flat->nodeOf(flat->index(0, 0)));
        const QString part = name.mid(name.size() / 3, std::max<qsizetype>(3, name.size() / 3)).toUpper();
        panel_->setSearch(part);
        int expected = 0;
        for (const FlatProfileRow& row : flatProfile(*report_, countSamples(*report_, {})))
            expected += QString::fromStdString(std::string(report_->str(report_->stacks.frame_function[row.frame])))
                            .contains(part, Qt::CaseInsensitive);
        QVERIFY(expected > 0);
        QCOMPARE(flat->rowCount(), expected);
        for (int r = 0; r < flat->rowCount(); ++r) QVERIFY(flat->index(r, 0).data(CallTreeModel::kMatchRole).toBool());
        // The trees keep the paths to the matches, opened to the first one.
        const CallTreeModel* top = panel_->model(CallTreePanel::TopDown);
        QVERIFY(top->rowCount() > 0);
        QVERIFY(!top->matches().empty());
        CallTreeView* tree = panel_->treeView(CallTreePanel::TopDown);
        QVERIFY(tree->currentIndex().data(CallTreeModel::kMatchRole).toBool());
        panel_->setSearch("");
        QCOMPARE(flat->rowCount(), int(flatProfile(*report_, countSamples(*report_, {})).size()));
        QVERIFY(top->matches().empty());
    }

    void doubleClickMarksTheFunctionsSamplesOnTheTimeline() {
        panel_->setView(CallTreePanel::Flat);
        CallTreeView* view = panel_->treeView(CallTreePanel::Flat);
        const QModelIndex first = view->model()->index(0, 0);
        const uint64_t total =
            first.siblingAtColumn(CallTreeModel::Total).data(CallTreeModel::kValueRole).toULongLong();
        QVERIFY(total > 0);
        view->scrollTo(first.siblingAtColumn(CallTreeModel::Total));
        const QPoint at = view->visualRect(first.siblingAtColumn(CallTreeModel::Total)).center();
        QVERIFY(view->isVisible() && view->viewport()->rect().contains(at));
        doubleClick(view->viewport(), at);
        TimelineView* timeline = window_->timeline();
        QTRY_COMPARE(timeline->markedSampleCount(), size_t(total));
        QCOMPARE(panel_->markedFrame(), std::optional(first.data(CallTreeModel::kFrameRole).toUInt()));
        // Every marked sample's stack holds the function.
        for (const MarkedSamples& lane : timeline->markedSamples())
            for (uint32_t i : lane.instants) {
                const auto frames = report_->stacks.framesOf(report_->lanes[lane.lane].instants.payload[i]);
                QVERIFY(std::find(frames.begin(), frames.end(), *panel_->markedFrame()) != frames.end());
            }
        // Esc on the timeline clears them; double-clicking twice marks and clears again.
        timeline->setFocus();
        QTest::keyClick(timeline, Qt::Key_Escape);
        QCOMPARE(timeline->markedSampleCount(), size_t(0));
        QVERIFY(!panel_->markedFrame());
        doubleClick(view->viewport(), at);
        QTRY_COMPARE(timeline->markedSampleCount(), size_t(total));
        doubleClick(view->viewport(), at);
        QTRY_COMPARE(timeline->markedSampleCount(), size_t(0));
        // In the flame graph too, and Esc in the panel clears.
        panel_->toggleSamplesOf(first.data(CallTreeModel::kFrameRole).toUInt());
        QTRY_COMPARE(timeline->markedSampleCount(), size_t(total));
        QTest::keyClick(view, Qt::Key_Escape);
        QCOMPARE(timeline->markedSampleCount(), size_t(0));
    }

    void theFlameGraphSpansTheSamplesAndZooms() {
        panel_->setView(CallTreePanel::Flame);
        FlameGraph* flame = panel_->flameGraph();
        QTRY_VERIFY(flame->isVisible() && flame->width() > 100);
        QCOMPARE(flame->rootSamples(), countSamples(*report_, {}).samples);
        QCOMPARE(flame->barRect(FlameGraph::kRoot).width(), double(flame->width()));
        // Top-level bars side by side, as wide as their share.
        const auto& rows = flame->rows();
        QVERIFY(!rows.empty());
        const QRectF first = flame->barRect(0);
        QVERIFY(std::abs(first.width() - double(rows[0].total) / double(flame->rootSamples()) * flame->width()) < 1.5);
        QCOMPARE(flame->nodeAt(first.center()), std::optional<uint32_t>(0));
        // Click: the bar fills the width; a child of it is under it; Esc zooms back out.
        uint32_t deep = 0;
        while (deep + 1 < rows.size() && rows[deep + 1].depth > rows[deep].depth && rows[deep].total == rows[0].total)
            ++deep;
        QTest::mouseClick(flame, Qt::LeftButton, {}, flame->barRect(deep).center().toPoint());
        QCOMPARE(flame->zoomedNode(), std::optional(deep));
        QVERIFY(std::abs(flame->barRect(deep).width() - flame->width()) < 1.0);
        QTest::keyClick(flame, Qt::Key_Escape);
        QVERIFY(!flame->zoomedNode());
        // Double-click marks the bar's function on the timeline.
        QTest::mouseDClick(flame, Qt::LeftButton, {}, flame->barRect(0).center().toPoint());
        QTRY_VERIFY(window_->timeline()->markedSampleCount() > 0);
        QCOMPARE(panel_->markedFrame(), std::optional(rows[0].frame));
        panel_->clearMarkedSamples();
        QCOMPARE(window_->timeline()->markedSampleCount(), size_t(0));
        panel_->setView(CallTreePanel::TopDown);
    }

    // A million samples on 8 threads over 30,000 stacks (3,000 functions in 20 modules): the
    // trees come without the GUI thread stalling, and marking a function is quick. Prints the
    // figures (README's performance notes).
    void aMillionSamplesKeepTheWindowResponsive() {
        auto report = std::make_shared<Report>(millionSamples());
        QElapsedTimer clock;
        qint64 longestTurn = 0, lastTick = 0;
        QTimer ticker;  // the longest gap between its ticks: how long the GUI thread was busy
        ticker.setInterval(5);
        connect(&ticker, &QTimer::timeout, [&] {
            longestTurn = std::max(longestTurn, clock.elapsed() - lastTick);
            lastTick = clock.elapsed();
        });
        auto measure = [&](const char* what, auto&& start, auto&& done) {
            clock.start();
            lastTick = 0;
            longestTurn = 0;
            ticker.start();
            start();
            QVERIFY(QTest::qWaitFor(done, 60000));
            ticker.stop();
            qInfo("%s: %lld ms, longest GUI-thread turn %lld ms", what, clock.elapsed(), longestTurn);
        };
        window_->session()->closeAll();
        measure(
            "1,000,000 samples, whole report", [&] { window_->session()->addReport(report, nullptr); },
            [&] { return !panel_->busy() && panel_->model(CallTreePanel::TopDown)->rowCount() > 0; });
        QCOMPARE(panel_->flameGraph()->rootSamples(), uint64_t(1000000));
        report_ = report;
        checkAgainst({});
        const int64_t end = report->meta.end_ns;
        measure(
            "half of the range",
            [&] {
                window_->session()->setSelectedRange(TimeInterval{0, end / 2});
            },
            [&] { return !panel_->busy(); });
        SampleSelection half;
        half.range = {0, end / 2};
        checkAgainst(half);
        const CallTreeModel* flat = panel_->model(CallTreePanel::Flat);
        const uint64_t total = flat->index(0, CallTreeModel::Total).data(CallTreeModel::kValueRole).toULongLong();
        measure(
            "marking a function's samples",
            [&] { panel_->toggleSamplesOf(flat->index(0, 0).data(CallTreeModel::kFrameRole).toUInt()); },
            [&] { return window_->timeline()->markedSampleCount() == total; });
        window_->timeline()->repaint();
        qInfo("timeline frame with %llu marked samples: %.1f ms", qulonglong(total),
              window_->timeline()->lastFrameMs());
        measure(
            "search", [&] { panel_->setSearch("fn_12"); }, [&] { return true; });
        QVERIFY(longestTurn < 2000);
        panel_->setSearch("");
    }

    void cleanupTestCase() { window_.reset(); }
};

int runCallTreeTest(int argc, char** argv) {
    return runGuiTest<CallTreeTest>(argc, argv, "CallTreeTest", "gui_call_tree_tests");
}

#include "CallTreeTest.moc"
