#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "GuiTestMain.h"
#include "OpenAndWait.h"
#include "RaiseDock.h"
#include "TestPaths.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ViewSession.h"
#include "app/gui/panels/criticalpath/CriticalPathPanel.h"
#include "timeline/QtText.h"
#include "timeline/TimeFormat.h"

using namespace lanescope;

// The Critical path panel in the real window, offscreen, on the hand-built GPU-bound trace of
// tests/data/critical_path (its path known by construction, gpu_bound.expected.csv): the
// segments table row for row, the bar's categories summing to the path's length, a click on
// the Kernel row moving the timeline to that segment and selecting its kernel, N and Shift+N
// stepping along the path; then a real capture (train_1gpu.nsys-rep), the window grabbed into
// LANESCOPE_SCREENSHOT_DIR as critical_path_panel.png when that is set.
class CriticalPathPanelTest : public QObject {
    Q_OBJECT

    struct ExpectedSegment {
        int64_t start = 0, end = 0;
        QString category, name;
    };

    std::unique_ptr<MainWindow> window_;
    CriticalPathPanel* panel_ = nullptr;
    ViewSession* session_ = nullptr;

    bool open(const std::string& relative) { return open(std::vector<std::string>{relative}); }
    bool open(const std::vector<std::string>& relatives) { return openAndWait(*window_, relatives); }
    bool computed() {
        return QTest::qWaitFor([&] { return !panel_->busy() && panel_->path().has_value(); }, 20000);
    }
    QString cell(int row, int column) const {
        return panel_->segmentsView()->model()->index(row, column).data().toString();
    }
    static std::vector<ExpectedSegment> expected(const std::string& relative) {
        std::vector<ExpectedSegment> rows;
        std::istringstream in(test::readFile(test::dataFile(relative)));
        std::string line;
        std::getline(in, line);  // the header
        while (std::getline(in, line)) {
            if (line.empty()) continue;
            const QStringList f = QString::fromStdString(line).split(',');  // no quoted fields in this file
            rows.push_back({f[0].toLongLong(), f[1].toLongLong(), f[3], f[4]});
        }
        return rows;
    }
    bool showsSegment(size_t i) const {
        const PathSegments& s = panel_->path()->segments;
        const auto [begin, end] = session_->visibleRange();
        return begin < s.start_ns[i] && end > s.end_ns[i] && end - begin < 3 * (s.end_ns[i] - s.start_ns[i]) + 4000;
    }

private slots:
    void initTestCase() {
        window_ = std::make_unique<MainWindow>();
        window_->resize(1400, 900);
        window_->show();
        panel_ = window_->findChild<CriticalPathPanel*>();
        QVERIFY(panel_);
        raiseDockOf(panel_);
        session_ = window_->session();
        QVERIFY(open("critical_path/gpu_bound.sqlite"));
        QVERIFY(computed());
    }

    void theSegmentsTableIsThePath() {
        const std::vector<ExpectedSegment> rows = expected("critical_path/gpu_bound.expected.csv");
        QCOMPARE(rows.size(), size_t(9));
        const PathSegments& s = panel_->path()->segments;
        QCOMPARE(panel_->segmentsView()->model()->rowCount(), 9);
        const int64_t begin = session_->reports()[0]->meta.begin_ns;
        for (size_t i = 0; i < rows.size(); ++i) {
            const int r = int(i);
            QCOMPARE(s.start_ns[i], rows[i].start);
            QCOMPARE(s.end_ns[i], rows[i].end);
            QCOMPARE(cell(r, 0), qs(formatDuration(rows[i].start - begin, 6)));
            QCOMPARE(cell(r, 1), qs(formatDuration(rows[i].end - rows[i].start)));
            QCOMPARE(cell(r, 2), rows[i].category);
            QCOMPARE(cell(r, 3), rows[i].name);
        }
        QVERIFY(panel_->summary()->text().contains("9 segments"));
        // The top names: the three kernels' 50 µs each lead.
        QVERIFY(panel_->namesView()->rowCount() >= 3);
        QCOMPARE(panel_->namesView()->item(0, 0)->text(), QString("Kernel"));
    }

    void theBarsCategoriesSumToTheLength() {
        const PathCategoryBar* bar = panel_->bar();
        const int64_t length = panel_->path()->end_ns - panel_->path()->begin_ns;
        QCOMPARE(length, int64_t(200000));
        QCOMPARE(bar->length(), length);
        QCOMPARE(std::accumulate(bar->totals().begin(), bar->totals().end(), int64_t(0)), length);
        QCOMPARE(bar->totals()[size_t(PathCategory::Kernel)], int64_t(150000));
    }

    // The path on the timeline: its 9 segments as the overlay; a kernel of the path outlined, an
    // event off the path dimmed (the same view without the overlay differs there); "Show on
    // timeline" and hiding the panel clear it.
    void theTimelineShowsThePath() {
        TimelineView* timeline = session_->timeline();
        QVERIFY(timeline);
        const PathSegments& s = panel_->path()->segments;
        QCOMPARE(timeline->pathOverlay().size(), size_t(9));
        QCOMPARE(timeline->pathOverlay().item[2], uint8_t(1));
        QCOMPARE(timeline->pathOverlay().item[1], uint8_t(0));
        session_->zoomTo(panel_->path()->begin_ns - 5000, panel_->path()->end_ns + 5000);
        session_->selectEvent(std::nullopt);
        const QImage with = timeline->grab().toImage();
        panel_->showOnTimeline()->setChecked(false);
        QVERIFY(timeline->pathOverlay().empty());
        const QImage without = timeline->grab().toImage();
        panel_->showOnTimeline()->setChecked(true);
        QCOMPARE(timeline->pathOverlay().size(), size_t(9));
        const qreal dpr = with.devicePixelRatio();
        auto pixel = [&](const QImage& image, QPoint at) { return image.pixel(int(at.x() * dpr), int(at.y() * dpr)); };
        // kernel_a, on the path: outlined just above its box.
        const QRect kernel = timeline->eventRect(ViewEvent{0, uint32_t(s.lane[2]), uint32_t(s.event[2])});
        QVERIFY(!kernel.isEmpty());
        const QPoint edge(kernel.center().x(), kernel.top() - 1);
        QVERIFY(pixel(with, edge) != pixel(without, edge));
        QCOMPARE(pixel(with, kernel.center()), pixel(without, kernel.center()));  // not dimmed
        // A launch not on the path (the path takes kernel_b's launch latency instead): dimmed.
        const uint32_t launch = uint32_t(s.event[0]) + 1;
        const Lane& api = session_->reports()[0]->lanes[size_t(s.lane[0])];
        QVERIFY(launch < api.events.size());
        const QRect off = timeline->eventRect(ViewEvent{0, uint32_t(s.lane[0]), launch});
        QVERIFY(!off.isEmpty());
        const QPoint inside(off.center().x(), off.top() + 2);
        QVERIFY(pixel(with, inside) != pixel(without, inside));
        QVERIFY(qGray(pixel(with, inside)) != qGray(pixel(without, inside)));
        // Hidden, the panel takes the path off the timeline; shown again, puts it back.
        panel_->hide();
        QVERIFY(timeline->pathOverlay().empty());
        panel_->show();
        QCOMPARE(timeline->pathOverlay().size(), size_t(9));
    }

    void aClickOnAKernelRowGoesToIt() {
        int row = -1;
        for (int r = 0; r < panel_->segmentsView()->model()->rowCount() && row < 0; ++r)
            if (cell(r, 2) == "Kernel") row = r;
        QCOMPARE(row, 2);
        session_->fitAll();
        QTableView* view = panel_->segmentsView();
        const QRect rect = view->visualRect(view->model()->index(row, 3));
        QVERIFY(rect.isValid());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
        QVERIFY(showsSegment(size_t(row)));
        const PathSegments& s = panel_->path()->segments;
        const std::optional<ViewEvent> selected = session_->selectedEvent();
        QVERIFY(selected);
        QCOMPARE(selected->lane, uint32_t(s.lane[size_t(row)]));
        QCOMPARE(selected->event, uint32_t(s.event[size_t(row)]));
        // The path is kept: selecting its event changes neither the range nor the path.
        QVERIFY(!panel_->busy());
        QCOMPARE(view->currentIndex().row(), row);
    }

    void nAndShiftNStepAlongThePath() {
        QTableView* view = panel_->segmentsView();
        view->setFocus();
        QTest::keyClick(view, Qt::Key_N);
        QCOMPARE(view->currentIndex().row(), 3);
        QVERIFY(showsSegment(3));
        QTest::keyClick(view, Qt::Key_N, Qt::ShiftModifier);
        QTest::keyClick(view, Qt::Key_N, Qt::ShiftModifier);
        QCOMPARE(view->currentIndex().row(), 1);
        QVERIFY(showsSegment(1));
    }

    // What if the three kernels (the names table's Kernel rows, selected) were twice as fast: by
    // construction 3 x 25 µs less, every gap kept (200 µs -> 125 µs); the answer names the
    // new path's time and its top names, and its bar sums to the new length.
    void whatIfTheKernelsWereTwiceAsFast() {
        QTableWidget* names = panel_->namesView();
        names->clearSelection();
        int kernels = 0;
        for (int r = 0; r < names->rowCount(); ++r)
            if (names->item(r, 0)->text() == "Kernel") {
                names->selectionModel()->select(names->model()->index(r, 0),
                                                QItemSelectionModel::Select | QItemSelectionModel::Rows);
                ++kernels;
            }
        QCOMPARE(kernels, 3);
        panel_->whatIfFactor()->setValue(2.0);
        panel_->whatIf();
        QVERIFY(QTest::qWaitFor([&] { return !panel_->busy() && panel_->whatIfPath(); }, 20000));
        const CriticalPath& answer = *panel_->whatIfPath();
        QCOMPARE(*answer.what_if_length_ns, int64_t(125000));
        QCOMPARE(answer.what_if_by_category[size_t(PathCategory::Kernel)], int64_t(75000));
        QVERIFY(panel_->whatIfBar()->isVisible());
        QCOMPARE(
            std::accumulate(panel_->whatIfBar()->totals().begin(), panel_->whatIfBar()->totals().end(), int64_t(0)),
            int64_t(125000));
        const QString text = panel_->whatIfAnswer()->text();
        QVERIFY2(text.contains(qs(formatDuration(200000)) + " → " + qs(formatDuration(125000))), qPrintable(text));
        QVERIFY2(text.contains("-37.5%"), qPrintable(text));
        QVERIFY2(text.contains("step 22.4%"), qPrintable(text));  // the CPU tail, 28 of 125 µs
        // A factor of 1 gives the same length back; gaps alone change nothing and say so.
        panel_->whatIfFactor()->setValue(1.0);
        panel_->whatIf();
        QVERIFY(QTest::qWaitFor([&] { return !panel_->busy() && panel_->whatIfPath(); }, 20000));
        QCOMPARE(*panel_->whatIfPath()->what_if_length_ns, int64_t(200000));
        names->clearSelection();
        for (int r = 0; r < names->rowCount(); ++r)
            if (names->item(r, 0)->text() == "CPU") names->selectRow(r);
        panel_->whatIf();
        QVERIFY(!panel_->whatIfPath());
        QVERIFY(panel_->whatIfAnswer()->text().contains("gaps"));
        panel_->whatIfFactor()->setValue(2.0);
    }

    void aSelectedRangeIsItsOwnPath() {
        const PathSegments& s = panel_->path()->segments;
        const int64_t a = s.start_ns[2] + 10000, b = s.end_ns[4];
        session_->setSelectedRange(TimeInterval{a, b});
        QVERIFY(
            QTest::qWaitFor([&] { return !panel_->busy() && panel_->path() && panel_->path()->begin_ns == a; }, 20000));
        QCOMPARE(panel_->path()->end_ns, b);
        QCOMPARE(panel_->path()->segments.start_ns.front(), a);
        QCOMPARE(panel_->bar()->length(), b - a);
        session_->setSelectedRange(std::nullopt);
        QVERIFY(QTest::qWaitFor([&] { return !panel_->busy() && panel_->path(); }, 20000));
        QCOMPARE(session_->timeline()->pathOverlay().size(), size_t(9));
        // A step or NVTX range selected on the timeline (no range selected): the path of its times.
        const Report& report = *session_->reports()[0];
        std::optional<ViewEvent> step;
        for (uint32_t l = 0; l < report.lanes.size() && !step; ++l)
            if (report.lanes[l].kind == LaneKind::Nvtx && report.lanes[l].events.size() > 0) step = ViewEvent{0, l, 0};
        QVERIFY(step);
        const Lane& nvtx = report.lanes[step->lane];
        QCOMPARE(qs(report.str(nvtx.events.name_id[0])), QString("step"));
        session_->selectEvent(step);
        QVERIFY(QTest::qWaitFor(
            [&] { return !panel_->busy() && panel_->path() && panel_->path()->begin_ns == nvtx.events.start_ns[0]; },
            20000));
        QCOMPARE(panel_->path()->end_ns, nvtx.events.endNs(0));
        QVERIFY(panel_->summary()->text().startsWith("Critical path of step, "));
        session_->selectEvent(std::nullopt);
        // Closing the reports clears the path and the overlay.
        session_->closeAll();
        QVERIFY(QTest::qWaitFor([&] { return !panel_->busy(); }, 20000));
        QVERIFY(!panel_->path());
        QVERIFY(session_->timeline()->pathOverlay().empty());
    }

    // Two ranks of one job (two_ranks_late, its path known by construction): "All open ranks"
    // shows and is on, the path crosses to rank 1 where it arrived last at the all-reduce, the
    // overlay puts each segment on its own rank's rows, and a click on a rank 1 segment selects
    // its event in rank 1's report. Off, the path is of one report only.
    void theRanksOfOneJob() {
        QVERIFY(open(std::vector<std::string>{"critical_path/two_ranks_late_rank0.sqlite",
                                              "critical_path/two_ranks_late_rank1.sqlite"}));
        QCOMPARE(session_->reports().size(), size_t(2));
        raiseDockOf(panel_);  // several ranks bring the Ranks panel to the front
        QVERIFY(panel_->acrossRanks()->isVisible());
        QVERIFY(panel_->acrossRanks()->isChecked());
        QVERIFY(QTest::qWaitFor([&] { return !panel_->busy() && panel_->path() && panel_->pathReports().size() == 2; },
                                20000));
        const std::vector<ExpectedSegment> rows = expected("critical_path/two_ranks_late.expected.csv");
        const PathSegments& s = panel_->path()->segments;
        QCOMPARE(s.size(), rows.size());
        for (size_t i = 0; i < rows.size(); ++i) {
            QCOMPARE(s.start_ns[i], rows[i].start);
            QCOMPARE(s.end_ns[i], rows[i].end);
            QCOMPARE(cell(int(i), 2), rows[i].category);
        }
        QVERIFY(cell(2, 4).startsWith("rank 1 "));
        QVERIFY(panel_->summary()->text().contains("through 2 of 2 ranks"));
        // The overlay: rank 1's kernel_a on rank 1's rows, at its own (unaligned) time.
        const PathOverlay& overlay = session_->timeline()->pathOverlay();
        QCOMPARE(overlay.size(), s.size());
        QCOMPARE(overlay.report[2], 1);
        QCOMPARE(overlay.report[4], 0);
        QCOMPARE(overlay.start_ns[2], s.start_ns[2] - panel_->path()->offsets_ns[1]);
        QCOMPARE(panel_->path()->offsets_ns[1], int64_t(-1000000));
        panel_->activateSegment(2);
        const std::optional<ViewEvent> selected = session_->selectedEvent();
        QVERIFY(selected);
        QCOMPARE(selected->report, 1);
        QCOMPARE(selected->event, uint32_t(s.event[2]));
        // Off: the path of the selected event's report (rank 1) alone.
        panel_->acrossRanks()->setChecked(false);
        QVERIFY(QTest::qWaitFor(
            [&] { return !panel_->busy() && panel_->path() && panel_->pathReports() == std::vector<int>{1}; }, 20000));
        for (int32_t r : session_->timeline()->pathOverlay().report) QCOMPARE(r, 1);
    }

    void aRealCapture() {
        window_ = std::make_unique<MainWindow>();
        window_->resize(1600, 1000);
        window_->show();
        panel_ = window_->findChild<CriticalPathPanel*>();
        session_ = window_->session();
        QVERIFY(open("nsys-2025.3/train_1gpu.nsys-rep"));
        // View > Critical path (Ctrl+Shift+K) brings the panel to the front and computes.
        QAction* show = nullptr;
        for (QAction* a : window_->findChildren<QAction*>())
            if (a->shortcut() == QKeySequence("Ctrl+Shift+K")) show = a;
        QVERIFY(show);
        QCOMPARE(show->text(), QString("Critical pat&h"));
        QVERIFY(!panel_->path());
        show->trigger();
        QVERIFY(computed());
        const CriticalPath& path = *panel_->path();
        const PathSegments& s = path.segments;
        QVERIFY(s.size() > 10);
        QCOMPARE(s.start_ns.front(), path.begin_ns);
        QCOMPARE(s.end_ns.back(), path.end_ns);
        for (size_t i = 1; i < s.size(); ++i) QCOMPARE(s.start_ns[i], s.end_ns[i - 1]);
        QCOMPARE(std::accumulate(panel_->bar()->totals().begin(), panel_->bar()->totals().end(), int64_t(0)),
                 path.end_ns - path.begin_ns);
        QCOMPARE(panel_->segmentsView()->model()->rowCount(), int(s.size()));
        QTest::qWait(50);  // the dock laid out at its new height before the table scrolls
        panel_->activateSegment(int(s.size()) / 2);
        QVERIFY(showsSegment(s.size() / 2));
        QCOMPARE(session_->timeline()->pathOverlay().size(), s.size());
        // Several segments around it, on their rows, joined across rows.
        // (around a kernel on the path, so that it crosses from the CPU thread to a stream).
        size_t mid = s.size() / 2;
        for (size_t i = 0; i < s.size(); ++i)
            if (s.category[i] == PathCategory::Kernel) {
                mid = i;
                break;
            }
        const size_t a = mid >= 3 ? mid - 3 : 0, b = std::min(s.size() - 1, mid + 3);
        const int64_t span = s.end_ns[b] - s.start_ns[a];
        session_->zoomTo(s.start_ns[a] - span / 10, s.end_ns[b] + span / 10);
        QTest::qWait(50);
        // LANESCOPE_SCREENSHOT_DIR=DIR keeps a picture of the window, to look at as a user would.
        if (const QString dir = qEnvironmentVariable("LANESCOPE_SCREENSHOT_DIR"); !dir.isEmpty())
            QVERIFY(window_->grab().save(QDir(dir).filePath("critical_path_panel.png")));
    }

    void cleanupTestCase() { window_.reset(); }
};

int runCriticalPathPanelTest(int argc, char** argv) {
    return runGuiTest<CriticalPathPanelTest>(argc, argv, "CriticalPathPanelTest", "gui_critical_path_tests");
}

#include "CriticalPathPanelTest.moc"
