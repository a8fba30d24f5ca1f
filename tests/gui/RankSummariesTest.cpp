// Rank summaries in the real window: a folder of them (written from the corpus's DDP pair)
// compared in the Ranks panel as the two reports are; no timeline until a rank's report is
// opened from its row, then placed where the summaries' alignment puts it; damaged, newer and
// empty folders refused in one line while the window keeps working; File > Close.
#include <QAction>
#include <QMenuBar>
#include <QStatusBar>
#include <QTableWidget>
#include <QTest>
#include <filesystem>
#include <fstream>

#include "GuiTestMain.h"
#include "TestPaths.h"
#include "analysis/ranks/RankSummary.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ViewSession.h"
#include "app/gui/panels/ranks/ComparePanel.h"
#include "app/gui/panels/ranks/RankHeatMap.h"
#include "timeline/TimelineView.h"

using namespace lanescope;
namespace fs = std::filesystem;

class RankSummariesTest : public QObject {
    Q_OBJECT

    fs::path dir_;
    std::unique_ptr<MainWindow> reports_;  // the DDP pair's reports
    QString summaries_;                    // their summaries: rank0/, rank1/

    static QString qs(const fs::path& p) { return QString::fromStdString(p.string()); }

    static bool open(MainWindow& window, const QStringList& paths) {
        bool done = false, ok = false;
        window.setAllLoadedCallback([&](bool allOk) {
            done = true;
            ok = allOk;
        });
        window.openFiles(paths);
        const bool loaded = QTest::qWaitFor([&] { return done; }, 60000);
        window.setAllLoadedCallback({});  // done and ok end here: a later load must not reach them
        return loaded && ok;
    }

    static ComparePanel* compared(MainWindow& window, size_t ranks) {
        auto* compare = window.findChild<ComparePanel*>();
        if (!QTest::qWaitFor([&] { return !compare->busy() && compare->comparison().ranks.size() == ranks; }, 20000))
            return nullptr;
        return compare;
    }

    // The ranks table as text, row by row, in the order shown.
    static QStringList rankRows(MainWindow& window) {
        QStringList rows;
        auto* table = window.findChild<QTableWidget*>("rankTable");
        for (int r = 0; r < table->rowCount(); ++r) {
            QStringList cells;
            for (int c = 0; c < table->columnCount(); ++c) cells << table->item(r, c)->text();
            rows << cells.join(" | ");
        }
        return rows;
    }

    static void replaceIn(const fs::path& file, const std::string& from, const std::string& to) {
        std::string text = test::readFile(file);
        const size_t at = text.find(from);
        QVERIFY(at != std::string::npos);
        text.replace(at, from.size(), to);
        std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
    }

    std::unique_ptr<MainWindow> summaryWindow() {
        auto window = std::make_unique<MainWindow>();
        window->resize(1400, 900);
        window->show();
        return window;
    }

private slots:
    void initTestCase() {
        dir_ = test::tempDir("gui-rank-summaries");
        fs::create_directories(dir_ / "reports");
        QStringList files;
        for (const char* name : {"ddp_rank0.sqlite", "ddp_rank1.sqlite"}) {
            fs::copy_file(test::dataFile(std::string("nsys-2025.3/") + name), dir_ / "reports" / name);
            files << qs(dir_ / "reports" / name);
        }
        reports_ = summaryWindow();
        QVERIFY(open(*reports_, files));
        QVERIFY(compared(*reports_, 2));
        // Summarized with the library, as `lanescope-cli summarize` does, from the reports open.
        const auto& open = reports_->session()->reports();
        for (size_t i = 0; i < open.size(); ++i)
            QCOMPARE(writeRankSummary(*open[i], dir_ / "summaries" / ("rank" + std::to_string(i))), std::string());
        summaries_ = qs(dir_ / "summaries");
    }

    // The folder of summaries gives the Ranks panel of the two reports: the same rows, straggler,
    // collectives and heat map, from summaries alone (no report open, no timeline).
    void sameAsTheReports() {
        auto window = summaryWindow();
        QVERIFY(open(*window, {summaries_}));
        ComparePanel* compare = compared(*window, 2);
        QVERIFY(compare);
        const ComparePanel* expected = compared(*reports_, 2);
        QVERIFY(compare->fromSummaries());
        QVERIFY(window->session()->reports().empty());
        QCOMPARE(rankRows(*window), rankRows(*reports_));
        QCOMPARE(compare->stragglerText(), expected->stragglerText());
        QVERIFY(compare->stragglerText().contains("Straggler: rank 1"));
        QCOMPARE(compare->comparison().collectives.size(), expected->comparison().collectives.size());
        QCOMPARE(compare->comparison().alignment.offsets_ns, expected->comparison().alignment.offsets_ns);
        QCOMPARE(compare->heatMap()->grid().step_ns, expected->heatMap()->grid().step_ns);
        QCOMPARE(compare->heatMap()->grid().wait_ns, expected->heatMap()->grid().wait_ns);
        QVERIFY(compare->sourceText().startsWith("From 2 rank summaries: open a rank's report to see its timeline"));
        QVERIFY(compare->sourceText().contains("Every report is on this machine"));
        QCOMPARE(window->windowTitle(), QString("2 rank summaries — Lanescope"));
        QCOMPARE(compare->timelineOf(0), -1);
        // A summary folder itself opens too, and one already open is not added twice.
        QVERIFY(open(*window, {summaries_ + "/rank1"}));
        QVERIFY(compared(*window, 2));
        QCOMPARE(compare->summaries()->size(), size_t(2));
    }

    // Without a timeline, clicks on a heat map cell or a collective change nothing; opening a
    // rank's report (its row double-clicked) puts it on the timeline where the summaries'
    // alignment puts it, and the clicks then show its step there.
    void openingARanksReport() {
        auto window = summaryWindow();
        QVERIFY(open(*window, {summaries_}));
        ComparePanel* compare = compared(*window, 2);
        QVERIFY(compare);
        ViewSession* session = window->session();
        const RankHeatMap* map = compare->heatMap();
        QVERIFY(QTest::qWaitFor([&] { return map->isVisible(); }, 5000));
        const auto shownBefore = session->visibleRange();
        const QRect cell = map->cellRect(1, 3);
        QVERIFY(!cell.isEmpty());
        QTest::mouseClick(const_cast<RankHeatMap*>(map), Qt::LeftButton, {}, cell.center());
        QVERIFY(map->cellTooltip(1, 3).contains("no timeline"));
        compare->activateCollective(0);
        QVERIFY(!session->selectedRange());
        QVERIFY(!session->selectedEvent());
        QVERIFY(session->visibleRange() == shownBefore);

        // Rank 1's row, double-clicked: its report opens, alone on the timeline.
        auto* table = window->findChild<QTableWidget*>("rankTable");
        int row = 0;
        while (row < table->rowCount() && table->item(row, 0)->text() != "rank 1") ++row;
        QVERIFY(row < table->rowCount());
        const QRect rowRect = table->visualItemRect(table->item(row, 0));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, rowRect.center());  // what the view sees first
        QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, rowRect.center());
        QVERIFY(QTest::qWaitFor([&] { return session->reports().size() == 1; }, 30000));
        QVERIFY(compared(*window, 2));
        QVERIFY(compare->fromSummaries());  // still the summaries' comparison
        QCOMPARE(compare->timelineOf(1), 0);
        QCOMPARE(compare->timelineOf(0), -1);
        const int64_t offset1 = compare->comparison().alignment.offsets_ns[1];
        QCOMPARE(session->offset(0), offset1);
        QVERIFY(compare->sourceText().contains("1 open on the timeline"));
        QVERIFY(map->cellTooltip(1, 3).contains("click: show it on the timeline"));

        // A click on one of its cells shows that step on the timeline.
        QTest::mouseClick(const_cast<RankHeatMap*>(map), Qt::LeftButton, {}, cell.center());
        const StepGrid& grid = map->grid();
        const int32_t index = grid.step_index[grid.at(1, 3)];
        QVERIFY(index >= 0);
        const StepRange& step = compare->comparison().ranks[1].steps[size_t(index)];
        QVERIFY(session->selectedRange() == std::make_pair(step.start_ns + offset1, step.end_ns + offset1));
        QVERIFY(session->selectedEvent() == (ViewEvent{0, step.range.lane, step.range.index}));
        QVERIFY(!window->timeline()->eventRect(*session->selectedEvent()).isEmpty());
        // Rank 0 too (as its row's context menu does): both where opening the two reports put them.
        QVERIFY(compare->openRankReport(0));
        QVERIFY(QTest::qWaitFor([&] { return session->reports().size() == 2; }, 30000));
        QCOMPARE(compare->timelineOf(0), 1);
        QCOMPARE(session->offset(1), reports_->session()->offset(0));
        QCOMPARE(session->offset(0), reports_->session()->offset(1));
    }

    // A summary whose report is not on this machine: nothing to open, and the panel says so.
    void reportNotOnThisMachine() {
        const fs::path moved = dir_ / "moved";
        fs::create_directories(moved);
        fs::copy(dir_ / "summaries" / "rank0", moved / "rank0");
        fs::copy(dir_ / "summaries" / "rank1", moved / "rank1");
        const std::string recorded = (dir_ / "reports" / "ddp_rank1.sqlite").string();
        replaceIn(moved / "rank1" / "rank-summary.json", "\"" + recorded + "\"", "\"/elsewhere/ddp_rank1.sqlite\"");
        replaceIn(moved / "rank1" / "rank-summary.json", "\"ddp_rank1.sqlite\"", "\"gone_rank1.sqlite\"");
        auto window = summaryWindow();
        QVERIFY(open(*window, {qs(moved)}));
        ComparePanel* compare = compared(*window, 2);
        QVERIFY(compare);
        QVERIFY(compare->sourceText().contains("1 of the 2 reports are on this machine"));
        QVERIFY(compare->summaries()->reports[1].isEmpty());
        QVERIFY(!compare->openRankReport(1));
        QTest::qWait(50);
        QVERIFY(window->session()->reports().empty());
    }

    // Damaged, newer and empty folders: one line each, in the status bar; the good summaries
    // beside them are read and the window goes on working.
    void damagedSummaries() {
        const fs::path bad = dir_ / "bad";
        fs::create_directories(bad);
        for (const char* rank : {"rank0", "rank1", "rank2", "rank3"})
            fs::copy(dir_ / "summaries" / (std::string(rank) == "rank0" ? "rank0" : "rank1"), bad / rank);
        replaceIn(bad / "rank2" / "rank-summary.json", "\"start_ns\": [", "\"start_ns\": [1,");
        replaceIn(bad / "rank3" / "rank-summary.json", "\"version\": 1", "\"version\": 7");
        auto window = summaryWindow();
        QVERIFY(!open(*window, {qs(bad)}));
        QVERIFY(compared(*window, 2));
        const QString message = window->statusBar()->currentMessage();
        QVERIFY2(message.contains("damaged rank summary") || message.contains("newer"), qPrintable(message));
        QVERIFY(!message.contains('\n'));
        QVERIFY(message.contains("rank-summary.json"));

        // A folder with no summaries, and a file that is no report: refused, nothing else changes.
        fs::create_directories(dir_ / "empty");
        QVERIFY(!open(*window, {qs(dir_ / "empty")}));
        QVERIFY(window->statusBar()->currentMessage().contains("no rank summaries here"));
        QCOMPARE(window->findChild<ComparePanel*>()->summaries()->size(), size_t(2));
        // Still working: a report opens beside them.
        QVERIFY(open(*window, {qs(dir_ / "reports" / "ddp_rank0.sqlite")}));
        QCOMPARE(window->session()->reports().size(), size_t(1));
    }

    // File > Close: the summaries go with the reports; the panel compares reports again.
    void closeForgetsThem() {
        auto window = summaryWindow();
        QVERIFY(open(*window, {summaries_}));
        ComparePanel* compare = compared(*window, 2);
        QVERIFY(compare);
        QAction* close = nullptr;
        for (QAction* a : window->menuBar()->actions().front()->menu()->actions())
            if (a->text() == "&Close") close = a;
        QVERIFY(close);
        close->trigger();
        QVERIFY(!compare->fromSummaries());
        QVERIFY(compared(*window, 0));
        QCOMPARE(window->windowTitle(), QString("Lanescope"));
        QVERIFY(compare->stragglerText().startsWith("Open the reports of several ranks"));
        if (const QString shots = qEnvironmentVariable("LANESCOPE_TEST_SCREENSHOTS"); !shots.isEmpty()) {
            QVERIFY(open(*window, {summaries_}));
            QVERIFY(compared(*window, 2));
            window->grab().save(shots + "/rank_summaries.png");
        }
    }

    // One report of a whole job (nsys profile torchrun): the panel says how to compare its ranks.
    void oneReportOfSeveralRanks() {
        auto window = summaryWindow();
        QVERIFY(open(*window, {qs(test::dataFile("nsys-2025.3/ddp_both_ranks.nsys-rep"))}));
        auto* compare = window->findChild<ComparePanel*>();
        QVERIFY(QTest::qWaitFor([&] { return !compare->busy(); }, 20000));
        QVERIFY(compare->stragglerText().startsWith("This report holds 2 ranks"));
        QVERIFY(compare->stragglerText().contains("lanescope-cli compare ddp_both_ranks.nsys-rep"));
    }

    void cleanupTestCase() {
        reports_.reset();
        fs::remove_all(dir_);
    }
};

int runRankSummariesTest(int argc, char** argv) {
    return runGuiTest<RankSummariesTest>(argc, argv, "RankSummariesTest", "gui_rank_summaries_tests");
}

#include "RankSummariesTest.moc"
