// Many ranks in the real window: each report's rows collapse into one summary row above
// RowLayout::kExpandedReportsMax reports and stay expanded up to it; the Ranks panel's heat
// map of ranks x steps (its cells, a click on one, sorting the ranks).
#include <sqlite3.h>

#include <QTest>
#include <filesystem>
#include <numeric>

#include "GuiTestMain.h"
#include "TestPaths.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ViewSession.h"
#include "app/gui/panels/ranks/ComparePanel.h"
#include "app/gui/panels/ranks/RankHeatMap.h"
#include "timeline/TimeFormat.h"
#include "timeline/TimelineView.h"

using namespace lanescope;

class RanksTest : public QObject {
    Q_OBJECT

    std::filesystem::path dir_;
    std::unique_ptr<MainWindow> window_;  // six ranks: copies of the DDP pair

    // Copies of the corpus's two DDP ranks as job_rank0 .. job_rank<n-1>: even ranks are rank 0's
    // capture, odd ones rank 1's, each with its torchrun environment saying RANK=<r>.
    QStringList rankFiles(int n) {
        QStringList files;
        for (int r = 0; r < n; ++r) {
            const auto to = dir_ / ("job_rank" + std::to_string(r) + ".sqlite");
            if (!std::filesystem::exists(to)) {
                std::filesystem::copy_file(
                    test::dataFile(r % 2 ? "nsys-2025.3/ddp_rank1.sqlite" : "nsys-2025.3/ddp_rank0.sqlite"), to);
                setEnvironmentRank(to, r);
            }
            files << QString::fromStdString(to.string());
        }
        return files;
    }

    // The captured environment's RANK=<0 or 1>; becomes RANK=<rank> (the copy only).
    static void setEnvironmentRank(const std::filesystem::path& copy, int rank) {
        sqlite3* db = nullptr;
        QVERIFY(sqlite3_open(copy.string().c_str(), &db) == SQLITE_OK);
        const std::string sql = "UPDATE TARGET_INFO_SYSTEM_ENV SET value = replace(replace(value, ';RANK=0;', ';RANK=" +
                                std::to_string(rank) + ";'), ';RANK=1;', ';RANK=" + std::to_string(rank) +
                                ";') WHERE name = 'DeviceEnvironment'";
        const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
        sqlite3_close(db);
        QCOMPARE(rc, SQLITE_OK);
    }

    static bool open(MainWindow& window, const QStringList& files) {
        bool done = false, ok = false;
        window.setAllLoadedCallback([&](bool allOk) {
            done = true;
            ok = allOk;
        });
        window.openFiles(files);
        const bool loaded = QTest::qWaitFor([&] { return done; }, 60000);
        window.setAllLoadedCallback({});  // done and ok end here: a later load must not reach them
        return loaded && ok;
    }

    static std::vector<const LayoutRow*> reportRows(TimelineView* view) {
        std::vector<const LayoutRow*> rows;
        for (const LayoutRow& row : view->rows().rows())
            if (row.level == 0) rows.push_back(&row);
        return rows;
    }

    ComparePanel* comparePanel() {
        auto* compare = window_->findChild<ComparePanel*>();
        const size_t n = window_->session()->reports().size();
        if (!QTest::qWaitFor([&] { return !compare->busy() && compare->comparison().ranks.size() == n; }, 20000))
            return nullptr;
        return compare;
    }

private slots:
    void initTestCase() {
        dir_ = test::tempDir("gui-ranks");
        window_ = std::make_unique<MainWindow>();
        window_->resize(1600, 1000);
        window_->show();
        QVERIFY(open(*window_, rankFiles(6)));
        QCOMPARE(window_->session()->reports().size(), size_t(6));
    }

    // Six ranks: every report is one slim row showing its GPU work; expanding one sticks when
    // another rank joins.
    void collapsedAboveTheThreshold() {
        TimelineView* view = window_->timeline();
        const auto rows = reportRows(view);
        QCOMPARE(rows.size(), size_t(6));
        QCOMPARE(view->rows().rows().size(), size_t(6));  // nothing below them
        for (const LayoutRow* row : rows) {
            QVERIFY(row->expandable && !row->expanded);
            QCOMPARE(row->height, RowLayout::kReportSummaryPx);
            QVERIFY(!row->lanes.empty());
            for (int lane : row->lanes)
                QCOMPARE(view->reports()[size_t(row->report)]->lanes[size_t(lane)].kind, LaneKind::GpuStream);
        }
        QCOMPARE(view->rows().totalHeight(), 6 * RowLayout::kReportSummaryPx);
        QCOMPARE(QString::fromStdString(rows[3]->label), QString("rank 3 · job_rank3.sqlite"));
        // The user's choice stays as a seventh rank joins.
        view->rows().toggleExpanded(rows[2]->key);
        QVERIFY(open(*window_, rankFiles(7).mid(6)));
        const auto after = reportRows(view);
        QCOMPARE(after.size(), size_t(7));
        for (const LayoutRow* row : after) QCOMPARE(row->expanded, row->report == 2);
        QVERIFY(comparePanel());
    }

    // Two ranks (and up to four): their rows as one report's, expanded.
    void expandedUpToTheThreshold() {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(open(window, rankFiles(4)));
        const auto rows = reportRows(window.timeline());
        QCOMPARE(rows.size(), size_t(4));
        for (const LayoutRow* row : rows) {
            QVERIFY(row->expanded);
            QCOMPARE(row->height, RowLayout::kGroupPx);
        }
        QVERIFY(window.timeline()->rows().rows().size() > 4 * 3);  // GPUs, processes, threads below
    }

    // The heat map's cells are the ranks' steps (RankMetrics::steps by number), and its tooltip
    // says so.
    void heatMapCellsAreTheSteps() {
        ComparePanel* compare = comparePanel();
        QVERIFY(compare);
        const RankHeatMap* map = compare->heatMap();
        const StepGrid& grid = map->grid();
        const RankComparison& c = compare->comparison();
        QCOMPARE(grid.ranks, c.ranks.size());
        for (size_t r = 0; r < c.ranks.size(); ++r) {
            QVERIFY(!c.ranks[r].steps.empty());
            for (size_t s = 0; s < c.ranks[r].steps.size(); ++s) {
                const StepRange& step = c.ranks[r].steps[s];
                const auto column =
                    size_t(std::find(grid.steps.begin(), grid.steps.end(), step.number) - grid.steps.begin());
                QVERIFY(column < grid.steps.size());
                const size_t cell = grid.at(r, column);
                if (grid.step_index[cell] != int32_t(s)) continue;  // a repeated number: its first counts
                QCOMPARE(grid.step_ns[cell], step.end_ns - step.start_ns);
                QVERIFY(map->cellTooltip(int(r), int(column))
                            .contains(QString::fromStdString(formatDuration(step.end_ns - step.start_ns))));
            }
        }
        // Coloured by the waits: their scale, from the cells' waits.
        compare->setHeatMeasure(true);
        QCOMPARE(map->measure(), RankHeatMap::Measure::Wait);
        const auto [low, high] = map->scale();
        QVERIFY(low >= 0 && high > low);
        QVERIFY(high <= *std::max_element(grid.wait_ns.begin(), grid.wait_ns.end()) + 1);
        compare->setHeatMeasure(false);
        QCOMPARE(map->measure(), RankHeatMap::Measure::StepTime);
        // Two captures six times over: every even rank's steps are rank 0's.
        for (size_t i = 0; i < grid.steps.size(); ++i)
            QCOMPARE(grid.step_ns[grid.at(2, i)], grid.step_ns[grid.at(0, i)]);
    }

    // A click on a cell shows that rank's step: zoomed to, selected, its rows expanded in sight.
    void clickingACellShowsTheStep() {
        ComparePanel* compare = comparePanel();
        QVERIFY(compare);
        const RankHeatMap* map = compare->heatMap();
        QVERIFY(QTest::qWaitFor([&] { return map->isVisible(); }, 5000));
        const StepGrid& grid = map->grid();
        const int rank = 5, column = int(grid.steps.size() / 2);
        const int32_t index = grid.step_index[grid.at(rank, size_t(column))];
        QVERIFY(index >= 0);
        const QRect cell = map->cellRect(rank, column);
        QVERIFY(!cell.isEmpty());
        QVERIFY(map->cellAt(cell.center()) == std::make_pair(rank, column));
        QTest::mouseClick(const_cast<RankHeatMap*>(map), Qt::LeftButton, {}, cell.center());

        ViewSession* session = window_->session();
        const StepRange& step = compare->comparison().ranks[rank].steps[size_t(index)];
        const int64_t begin = step.start_ns + session->offset(rank), end = step.end_ns + session->offset(rank);
        QVERIFY(session->selectedRange() == std::make_pair(begin, end));
        const auto [shownBegin, shownEnd] = session->visibleRange();
        QVERIFY(shownBegin <= begin && shownEnd >= end);
        QVERIFY(shownEnd - shownBegin < (end - begin) * 3 / 2);
        QVERIFY(session->selectedEvent() == (ViewEvent{rank, step.range.lane, step.range.index}));
        TimelineView* view = window_->timeline();
        for (const LayoutRow* row : reportRows(view))
            if (row->report == rank) QVERIFY(row->expanded);
        // Its rows are in sight: the step's NVTX range is drawn.
        QVERIFY(!view->eventRect(*session->selectedEvent()).isEmpty());
    }

    // Sorting the ranks table by a column orders the heat map's ranks by it.
    void sortingOrdersTheHeatMap() {
        ComparePanel* compare = comparePanel();
        QVERIFY(compare);
        const RankComparison& c = compare->comparison();
        const RankHeatMap* map = compare->heatMap();
        const auto columnOf = [](const char* name) { return int(ComparePanel::rankColumns().indexOf(name)); };
        compare->sortRanks(columnOf("Waited (ms)"), Qt::DescendingOrder);
        std::vector<int> order = map->order();
        QCOMPARE(order.size(), c.ranks.size());
        for (size_t i = 1; i < order.size(); ++i)
            QVERIFY(c.ranks[size_t(order[i - 1])].wait_ns >= c.ranks[size_t(order[i])].wait_ns);
        QVERIFY(c.ranks[size_t(order.front())].wait_ns > c.ranks[size_t(order.back())].wait_ns);
        compare->sortRanks(columnOf("Step avg (ms)"), Qt::AscendingOrder);
        order = map->order();
        for (size_t i = 1; i < order.size(); ++i)
            QVERIFY(c.ranks[size_t(order[i - 1])].step_ns.mean <= c.ranks[size_t(order[i])].step_ns.mean);
        compare->sortRanks(columnOf("Rank"), Qt::DescendingOrder);
        order = map->order();
        for (size_t i = 0; i < order.size(); ++i) QCOMPARE(c.ranks[size_t(order[i])].rank, int(order.size() - 1 - i));
        // The heat map draws its rows in that order: the top row is the last rank.
        const QRect top = map->cellRect(int(order.size()) - 1, 0);
        QVERIFY(!top.isEmpty());
        QVERIFY(map->cellAt(top.center())->first == int(order.size()) - 1);
        QVERIFY(map->cellRect(0, 0).top() > top.top());
        compare->sortRanks(columnOf("Rank"), Qt::AscendingOrder);
        order = map->order();
        std::vector<int> identity(order.size());
        std::iota(identity.begin(), identity.end(), 0);
        QVERIFY(order == identity);
        if (const QString shots = qEnvironmentVariable("LANESCOPE_TEST_SCREENSHOTS"); !shots.isEmpty())
            window_->grab().save(shots + "/many_ranks.png");
    }

    void cleanupTestCase() {
        window_.reset();
        std::filesystem::remove_all(dir_);
    }
};

int runRanksTest(int argc, char** argv) { return runGuiTest<RanksTest>(argc, argv, "RanksTest", "gui_ranks_tests"); }

#include "RanksTest.moc"
