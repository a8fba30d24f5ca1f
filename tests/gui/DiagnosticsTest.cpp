#include <sqlite3.h>

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QHeaderView>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <fstream>

#include "GuiTestMain.h"
#include "TestPaths.h"
#include "app/gui/MainWindow.h"
#include "app/gui/bars/NoticeBar.h"
#include "app/gui/panels/diagnostics/DiagnosticsPanel.h"
#include "app/gui/panels/diagnostics/NsysMessagesTable.h"
#include "app/log/Logging.h"

using namespace lanescope;

// The Diagnostics panel and its status-bar count in the real window, offscreen, on the
// PyTorch trace of tests/data (its diagnostics are all info) and on a copy of it with damaged
// events (warnings), then a report with none.
class DiagnosticsTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;
    DiagnosticsPanel* panel_ = nullptr;
    QToolButton* status_ = nullptr;

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

    void closeAll() {
        for (QAction* a : window_->findChildren<QAction*>())
            if (a->text() == "&Close") a->trigger();
    }

    // The panel's rows as (report, name) -> count, read from the table's cells.
    std::map<std::pair<QString, QString>, qulonglong> shown() const {
        std::map<std::pair<QString, QString>, qulonglong> rows;
        QTableWidget* t = panel_->table();
        for (int r = 0; r < t->rowCount(); ++r)
            rows[{t->item(r, DiagnosticsPanel::ReportColumn)->text(),
                  t->item(r, DiagnosticsPanel::NameColumn)->text()}] =
                t->item(r, DiagnosticsPanel::CountColumn)->data(Qt::UserRole).toULongLong();
        return rows;
    }

    // What the open reports hold, the same way.
    std::map<std::pair<QString, QString>, qulonglong> expected() const {
        std::map<std::pair<QString, QString>, qulonglong> rows;
        for (const auto& report : window_->timeline()->reports())
            for (const auto& [name, count] : report->diagnostics)
                rows[{QString::fromStdString(reportTitle(*report)), QString::fromStdString(name)}] = count;
        return rows;
    }

    // The title of the bottom panel in front: the current tab of the panels' tab bar.
    QString frontBottomTab() const {
        for (QTabBar* bar : window_->findChildren<QTabBar*>())
            for (int i = 0; i < bar->count(); ++i)
                if (bar->tabText(i) == "Statistics") return bar->tabText(bar->currentIndex());
        return {};
    }

    int rowOf(const QString& name) const {
        for (int r = 0; r < panel_->rowCount(); ++r)
            if (panel_->table()->item(r, DiagnosticsPanel::NameColumn)->text() == name) return r;
        return -1;
    }

private slots:
    void initTestCase() {
        window_ = std::make_unique<MainWindow>();
        window_->resize(1400, 900);
        window_->show();
        panel_ = window_->findChild<DiagnosticsPanel*>();
        QVERIFY(panel_);
        status_ = window_->statusBar()->findChild<QToolButton*>("diagnosticsStatus");
        QVERIFY(status_);
        QVERIFY(!status_->isVisible());
        QCOMPARE(panel_->rowCount(), 0);
    }

    void aTraceWithDiagnosticsFillsThePanelAndTheStatusBar() {
        QVERIFY(open(test::dataFile("kineto/train_1gpu_rank0.pt.trace.json")));
        const auto want = expected();
        QVERIFY(want.size() >= 2);  // json_unknown_category:Trace, json_fwdbwd_flows_not_shown
        QVERIFY(shown() == want);
        QCOMPARE(panel_->rowCount(), int(want.size()));
        // One report: no report column.
        QVERIFY(panel_->table()->isColumnHidden(DiagnosticsPanel::ReportColumn));
        // Each row explained as the model describes it, with its severity.
        const int trace = rowOf("json_unknown_category:Trace");
        QVERIFY(trace >= 0);
        QTableWidget* t = panel_->table();
        QCOMPARE(t->item(trace, DiagnosticsPanel::SeverityColumn)->text(), QString("Info"));
        QVERIFY(!t->item(trace, DiagnosticsPanel::SeverityColumn)->icon().isNull());
        QCOMPARE(t->item(trace, DiagnosticsPanel::ExplanationColumn)->text(),
                 QString::fromStdString(describeDiagnostic("json_unknown_category:Trace").explanation));
        QVERIFY(t->item(trace, DiagnosticsPanel::ExplanationColumn)->text().contains("category Trace"));
        // All info: counted in the status bar, in the ordinary colour.
        QVERIFY(status_->isVisible());
        QCOMPARE(status_->text(), QString("%1 diagnostics").arg(want.size()));
        QVERIFY(panel_->worstSeverity() == DiagnosticSeverity::Info);
        QVERIFY(status_->styleSheet().isEmpty());
    }

    void warningsColourTheCountAndClickingItShowsThePanel() {
        // The same trace with an end event that has no begin and an event without a time.
        std::string text = test::readFile(test::dataFile("kineto/train_1gpu_rank0.pt.trace.json"));
        const std::string events = "\"traceEvents\": [";
        const size_t at = text.find(events);
        QVERIFY(at != std::string::npos);
        text.insert(at + events.size(),
                    R"({"ph": "E", "pid": 1, "tid": 1, "ts": 5}, {"ph": "X", "pid": 1, "tid": 1},)");
        const auto damaged = test::tempDir("gui-diagnostics") / "damaged_rank1.pt.trace.json";
        std::ofstream(damaged, std::ios::binary) << text;
        QVERIFY(open(damaged));

        const auto want = expected();
        QVERIFY(shown() == want);
        QVERIFY(!panel_->table()->isColumnHidden(DiagnosticsPanel::ReportColumn));
        QVERIFY(panel_->worstSeverity() == DiagnosticSeverity::Warning);
        // Most severe first.
        QCOMPARE(panel_->table()->item(0, DiagnosticsPanel::SeverityColumn)->text(), QString("Warning"));
        const int unmatched = rowOf("json_unmatched_end");
        QVERIFY(unmatched >= 0);
        QCOMPARE(panel_->table()->item(unmatched, DiagnosticsPanel::CountColumn)->text(), QString("1"));
        QVERIFY(panel_->table()
                    ->item(unmatched, DiagnosticsPanel::ReportColumn)
                    ->text()
                    .endsWith("damaged_rank1.pt.trace.json"));
        QCOMPARE(status_->text(), QString("%1 diagnostics").arg(want.size()));
        QVERIFY(status_->styleSheet().contains("color:"));

        // Sortable: by count, largest first.
        panel_->table()->sortByColumn(DiagnosticsPanel::CountColumn, Qt::DescendingOrder);
        for (int r = 1; r < panel_->rowCount(); ++r)
            QVERIFY(panel_->table()->item(r - 1, DiagnosticsPanel::CountColumn)->data(Qt::UserRole).toULongLong() >=
                    panel_->table()->item(r, DiagnosticsPanel::CountColumn)->data(Qt::UserRole).toULongLong());

        // Behind another tab, a click on the count brings the panel to the front.
        auto* dock = window_->findChild<QDockWidget*>("diagnostics");
        QVERIFY(dock);
        window_->findChild<QDockWidget*>("statistics")->raise();
        QVERIFY(QTest::qWaitFor([&] { return frontBottomTab() == "Statistics"; }, 2000));
        QTest::mouseClick(status_, Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&] { return frontBottomTab() == "Diagnostics"; }, 2000));
        QVERIFY(panel_->isVisible());
        // Closed, it opens again.
        dock->close();
        QVERIFY(QTest::qWaitFor([&] { return !panel_->isVisible(); }, 2000));
        QTest::mouseClick(status_, Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&] { return panel_->isVisible(); }, 2000));
        panel_->table()->sortByColumn(DiagnosticsPanel::SeverityColumn, Qt::DescendingOrder);
        // For a person to look at: LANESCOPE_TEST_SCREENSHOTS=DIR saves the window.
        if (const QString dir = qEnvironmentVariable("LANESCOPE_TEST_SCREENSHOTS"); !dir.isEmpty())
            window_->grab().save(dir + "/diagnostics.png");
        std::filesystem::remove_all(damaged.parent_path());
    }

    void closingTheReportsHidesTheCount() {
        closeAll();
        QCOMPARE(panel_->rowCount(), 0);
        QVERIFY(!status_->isVisible());
        QVERIFY(panel_->worstSeverity() == std::nullopt);
    }

    void aReportWithoutDiagnosticsShowsNone() {
        QVERIFY(open(test::dataFile("nsys-2025.3/train_1gpu.sqlite")));
        QVERIFY(window_->timeline()->reports()[0]->diagnostics.empty());
        QCOMPARE(panel_->rowCount(), 0);
        QVERIFY(!status_->isVisible());
    }

    // Nsight's own messages: a tab of their own, counted apart in the status bar; the notice
    // above the timeline stays hidden for a report with GPU work.
    void nsightMessagesAreShownApart() {
        closeAll();
        QVERIFY(open(test::dataFile("nsys-2025.3/cuda_graphs.nsys-rep")));
        const Report& report = *window_->timeline()->reports().back();
        NsysMessagesTable* messages = panel_->messages();
        QCOMPARE(size_t(messages->rowCount()), report.nsys_messages.size());
        QCOMPARE(messages->rowCount(), 19);  // DIAGNOSTIC_EVENT of its export
        QToolButton* button = window_->statusBar()->findChild<QToolButton*>("nsysMessagesStatus");
        QVERIFY(button && button->isVisible());
        QCOMPARE(button->text(), QString("%1 Nsight messages").arg(messages->rowCount()));
        QStringList texts;
        for (int r = 0; r < messages->rowCount(); ++r)
            texts << messages->item(r, NsysMessagesTable::TextColumn)->text();
        QVERIFY(texts.contains("Not all CUDA events might have been collected."));
        QVERIFY(texts.contains("Number of CUDA events collected: 1874."));  // the tab, simplified
        auto* notice = window_->findChild<NoticeBar*>();
        QVERIFY(notice && notice->text().isEmpty());
        if (const QString dir = qEnvironmentVariable("LANESCOPE_TEST_SCREENSHOTS"); !dir.isEmpty()) {
            button->click();
            QTest::qWait(200);
            window_->grab().save(dir + "/nsight-messages.png");
        }
    }

    // A report without GPU work says why above the timeline: an export whose GPU tables are
    // gone and whose Nsight message says no CUDA event was collected.
    void aReportWithoutGpuWorkSaysWhyAboveTheTimeline() {
        const auto dir = test::tempDir("gui-no-gpu");
        const auto copy = dir / "no_gpu.sqlite";
        std::filesystem::copy_file(test::dataFile("nsys-2025.3/train_1gpu.sqlite"), copy);
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(copy.c_str(), &db), SQLITE_OK);
        const char* sql =
            "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL; DROP TABLE CUPTI_ACTIVITY_KIND_MEMCPY;"
            "DROP TABLE CUPTI_ACTIVITY_KIND_MEMSET; DROP TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;"
            "INSERT INTO DIAGNOSTIC_EVENT (timestamp, timestampType, source, severity, text, globalPid) VALUES "
            "(1000, 2, 3, 2, 'No CUDA events collected. Does the process use CUDA?', 0);";
        QCOMPARE(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
        closeAll();
        QVERIFY(open(copy));
        auto* notice = window_->findChild<NoticeBar*>();
        QVERIFY(notice);
        QVERIFY(QTest::qWaitFor([&] { return notice->isVisible(); }, 2000));
        QVERIFY(notice->text().contains("no_gpu.sqlite holds no GPU work"));
        QVERIFY(notice->text().contains("No CUDA events collected. Does the process use CUDA?"));
        if (const QString shots = qEnvironmentVariable("LANESCOPE_TEST_SCREENSHOTS"); !shots.isEmpty())
            window_->grab().save(shots + "/no-gpu-notice.png");
        std::filesystem::remove_all(dir);
    }

    void cleanupTestCase() { window_.reset(); }
};

int runDiagnosticsTest(int argc, char** argv) {
    return runGuiTest<DiagnosticsTest>(argc, argv, "DiagnosticsTest", "gui_diagnostics_tests");
}

#include "DiagnosticsTest.moc"
