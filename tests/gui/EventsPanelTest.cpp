#include <QApplication>
#include <QDockWidget>
#include <QHeaderView>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <filesystem>

#include "GuiTestMain.h"
#include "RaiseDock.h"
#include "TestPaths.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ViewSession.h"
#include "app/gui/panels/events/EventsPanel.h"
#include "app/log/Logging.h"
#include "model/DeferredLane.h"
#include "model/EventDetails.h"
#include "model/EventTableText.h"
#include "model/LaneFreezer.h"
#include "model/Occupancy.h"
#include "timeline/DeferredLanes.h"

using namespace lanescope;

// The Events panel in the real window, offscreen, on the Nsight Systems capture of tests/data:
// the events of a GPU stream row in a range, counted independently from the lane; sorting,
// filtering, the selection linked both ways with the session, copy and CSV export.
class EventsPanelTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;
    EventsPanel* panel_ = nullptr;
    ViewSession* session_ = nullptr;
    uint32_t stream_ = 0;  // the GPU stream lane with the most events
    TimeInterval range_{0, 0};

    const Report& report() const { return *session_->reports()[0]; }
    const Lane& lane() const { return report().lanes[stream_]; }
    bool settled() {
        return QTest::qWaitFor([&] { return !panel_->busy(); }, 20000);
    }
    int rows() const { return panel_->model()->rowCount(); }
    SourcedEvent eventAt(int row) const { return panel_->model()->eventAt(row); }
    int64_t durationAt(int row) const {
        const SourcedEvent e = eventAt(row);
        return lane().events.endNs(e.index) - lane().events.start_ns[e.index];
    }
    QString cell(int row, EventField field) const { return panel_->model()->index(row, int(field)).data().toString(); }
    // Events of the lane in [begin, end), counted from its columns: overlapping, or starting inside.
    size_t expectedCount(const Lane& l, TimeInterval range) const {
        size_t n = 0;
        for (size_t i = 0; i < l.events.size(); ++i) {
            const int64_t s = l.events.start_ns[i], e = l.events.endNs(i);
            if (s < range.second && (e > range.first || s >= range.first)) ++n;
        }
        return n;
    }

private slots:
    void initTestCase() {
        window_ = std::make_unique<MainWindow>();
        window_->resize(1400, 900);
        window_->show();
        panel_ = window_->findChild<EventsPanel*>();
        QVERIFY(panel_);
        raiseDockOf(panel_);
        session_ = window_->session();
        bool done = false, ok = false;
        window_->setAllLoadedCallback([&](bool allOk) {
            done = true;
            ok = allOk;
        });
        window_->openFiles({QString::fromStdString(test::dataFile("nsys-2025.3/train_1gpu.sqlite").string())});
        QVERIFY(QTest::qWaitFor([&] { return done; }, 30000) && ok);
        window_->setAllLoadedCallback({});  // done and ok end here: a later load must not reach them
        bool found = false;
        for (uint32_t l = 0; l < report().lanes.size(); ++l)
            if (report().lanes[l].kind == LaneKind::GpuStream &&
                (!found || report().lanes[l].events.size() > lane().events.size())) {
                stream_ = l;
                found = true;
            }
        QVERIFY(found);
        QVERIFY(lane().events.size() > 100);
        // The middle half of the stream's activity.
        const int64_t first = lane().events.start_ns.front(), last = lane().events.endNs(lane().events.size() - 1);
        range_ = {first + (last - first) / 4, first + (last - first) * 3 / 4};
    }

    void withoutRowsItSaysHowToPickThem() {
        QVERIFY(settled());
        QCOMPARE(rows(), 0);
        QCOMPARE(panel_->scopeText(), QString("No rows picked"));
        QVERIFY(!panel_->view()->isVisible());
    }

    void aClickOnARowNamePicksItsLane() {
        const LayoutRow* row = nullptr;
        for (const LayoutRow& r : window_->timeline()->rows().rows())
            if (r.type == Row::Type::Lane && r.index == int(stream_)) row = &r;
        QVERIFY(row);
        const QPoint at(window_->timeline()->headerWidth() / 2, TimelineView::kRulerHeight + row->y + 6);
        QVERIFY2(at.y() < window_->timeline()->height() - 20, "the stream row is below the visible rows");
        QTest::mouseClick(window_->timeline(), Qt::LeftButton, {}, at);
        // The stream's row: its kernel lane and its memory lane.
        QCOMPARE(session_->selectedLanes().size(), size_t(2));
        QVERIFY(session_->selectedLanes()[0] == (ViewLane{0, stream_}));
        const uint32_t memory = session_->selectedLanes()[1].lane;
        const Lane& memoryLane = report().lanes[memory];
        QVERIFY(memoryLane.kind == LaneKind::GpuStream && memoryLane.stream_id == lane().stream_id);
        QVERIFY(memoryLane.events.size() > 0 && memoryLane.events.kind[0] != EventKind::Kernel);
        QCOMPARE(window_->timeline()->selectedRows().size(), size_t(1));
        QVERIFY(settled());
        // No range selected: the visible range (the whole report) is listed.
        const size_t streamRows =
            expectedCount(lane(), session_->visibleRange()) + expectedCount(memoryLane, session_->visibleRange());
        QCOMPARE(size_t(rows()), streamRows);
        QVERIFY(panel_->scopeText().contains("visible range"));
        QVERIFY(panel_->scopeText().contains(" in Stream 7,"));  // one row, though two lanes

        // Ctrl+click adds a row and removes it again; a GPU row stands for every lane below it.
        auto rowPoint = [&](const LayoutRow& r) {
            return QPoint(window_->timeline()->headerWidth() / 2, TimelineView::kRulerHeight + r.y + 6);
        };
        const LayoutRow* other = nullptr;
        const LayoutRow* gpu = nullptr;
        for (const LayoutRow& r : window_->timeline()->rows().rows()) {
            if (!other && r.type == Row::Type::Lane && r.index != int(stream_) && r.lanes.size() == 1) other = &r;
            if (!gpu && r.type == Row::Type::Gpu) gpu = &r;
        }
        QVERIFY(other && gpu);
        QTest::mouseClick(window_->timeline(), Qt::LeftButton, Qt::ControlModifier, rowPoint(*other));
        QCOMPARE(session_->selectedLanes().size(), size_t(3));
        QVERIFY(settled());
        QCOMPARE(size_t(rows()),
                 streamRows + expectedCount(report().lanes[size_t(other->index)], session_->visibleRange()));
        QVERIFY(panel_->scopeText().contains("in 2 rows"));
        QTest::mouseClick(window_->timeline(), Qt::LeftButton, Qt::ControlModifier, rowPoint(*other));
        QCOMPARE(session_->selectedLanes().size(), size_t(2));
        QTest::mouseClick(window_->timeline(), Qt::LeftButton, {}, rowPoint(*gpu));
        size_t gpuLanes = 0;
        for (const Lane& l : report().lanes) gpuLanes += l.gpu == gpu->index ? 1 : 0;
        QCOMPARE(session_->selectedLanes().size(), gpuLanes);
        QVERIFY(settled());
        QTest::keyClick(window_->timeline(), Qt::Key_Escape);  // clears the picked rows too
        QVERIFY(session_->selectedLanes().empty());
        QVERIFY(window_->timeline()->selectedRows().empty());
        QTest::mouseClick(window_->timeline(), Qt::LeftButton, {}, at);
        QCOMPARE(session_->selectedLanes().size(), size_t(2));
    }

    void theRowsAreTheLanesEventsInTheSelectedRangeInStartOrder() {
        session_->setSelectedLanes({{0, stream_}});
        session_->setSelectedRange(range_);
        QVERIFY(settled());
        const size_t want = expectedCount(lane(), range_);
        QVERIFY(want > 10);
        QVERIFY(want < lane().events.size());
        QCOMPARE(size_t(rows()), want);
        QVERIFY(panel_->scopeText().startsWith(QLocale().toString(qulonglong(want)) + " events in "));
        QVERIFY(panel_->scopeText().contains("selected range"));
        for (int r = 1; r < rows(); ++r)
            QVERIFY(lane().events.start_ns[eventAt(r - 1).index] <= lane().events.start_ns[eventAt(r).index]);
        // Cells as the rest of the app writes them; kernel columns shown, NVTX ones hidden.
        const SourcedEvent first = eventAt(0);
        QCOMPARE(cell(0, EventField::Duration),
                 QString::fromStdString(
                     detailDuration(lane().events.endNs(first.index) - lane().events.start_ns[first.index])));
        QCOMPARE(cell(0, EventField::Name),
                 QString::fromStdString(std::string(report().str(lane().events.name_id[first.index]))));
        QCOMPARE(cell(0, EventField::Start),
                 QString::fromStdString(formatTimestamp(lane().events.start_ns[first.index])));
        QCOMPARE(cell(0, EventField::Row), QString::fromStdString(laneLabel(report(), stream_)));
        QVERIFY(!panel_->view()->isColumnHidden(int(EventField::Grid)));
        QVERIFY(!panel_->view()->isColumnHidden(int(EventField::Bytes)));
        QVERIFY(panel_->view()->isColumnHidden(int(EventField::Domain)));
        QVERIFY(panel_->view()->verticalHeader()->sectionResizeMode(0) == QHeaderView::Fixed);
    }

    void sortingByDurationOrdersTheRows() {
        const int count = rows();
        panel_->view()->sortByColumn(int(EventField::Duration), Qt::DescendingOrder);
        QVERIFY(settled());
        QCOMPARE(rows(), count);
        for (int r = 1; r < count; ++r) QVERIFY(durationAt(r - 1) >= durationAt(r));
        QVERIFY(durationAt(0) > durationAt(count - 1));
        panel_->view()->sortByColumn(int(EventField::Duration), Qt::AscendingOrder);
        QVERIFY(settled());
        QCOMPARE(rows(), count);
        for (int r = 1; r < count; ++r) QVERIFY(durationAt(r - 1) <= durationAt(r));
        // By name: alphabetical.
        panel_->view()->sortByColumn(int(EventField::Name), Qt::AscendingOrder);
        QVERIFY(settled());
        for (int r = 1; r < count; ++r)
            QVERIFY(cell(r - 1, EventField::Name).toStdString() <= cell(r, EventField::Name).toStdString());
    }

    // Theoretical occupancy: kernels from the highest down, each as the model computes it for its
    // GPU (model/Occupancy.h, checked against the CUDA driver in model_report_tests); the stream's
    // copies and memsets, which have none, last.
    void sortingByOccupancyOrdersTheKernels() {
        QVERIFY(!panel_->view()->isColumnHidden(int(EventField::Occupancy)));
        const int count = rows();
        panel_->view()->sortByColumn(int(EventField::Occupancy), Qt::DescendingOrder);
        QVERIFY(settled());
        QCOMPARE(rows(), count);
        double previous = 101;
        bool sawNone = false;
        int kernels = 0;
        for (int r = 0; r < count; ++r) {
            const SourcedEvent e = eventAt(r);
            const QString text = cell(r, EventField::Occupancy);
            if (lane().events.kind[e.index] != EventKind::Kernel) {
                QVERIFY(text.isEmpty());
                sawNone = true;
                continue;
            }
            QVERIFY2(!sawNone, "a kernel after an event without occupancy");
            const KernelConfig& c = report().kernel_configs[report().kernels[lane().events.payload[e.index]].config];
            const auto occupancy = kernelOccupancy(report(), lane(), c);
            QVERIFY(occupancy);
            QCOMPARE(text, QString::fromStdString(describePercent(occupancy->percent())));
            QVERIFY(occupancy->percent() <= previous);
            previous = occupancy->percent();
            ++kernels;
        }
        QVERIFY(kernels > 10);
        QVERIFY(previous < 100);  // not every kernel fills its SMs
        if (const QString dir = qEnvironmentVariable("LANESCOPE_TEST_SCREENSHOTS"); !dir.isEmpty())
            window_->grab().save(dir + "/events-by-occupancy.png");
        // Back to the order the tests after this one expect.
        panel_->view()->sortByColumn(int(EventField::Name), Qt::AscendingOrder);
        QVERIFY(settled());
    }

    void theFilterKeepsMatchingNames() {
        const int count = rows();
        // A word of the last row's name, which is not every row's.
        const QString name = cell(count - 1, EventField::Name);
        const QString word = name.left(std::min<qsizetype>(name.size(), 12));
        panel_->filter()->setText(word.toUpper());  // case-insensitive
        QVERIFY(settled());
        QVERIFY(rows() > 0);
        QVERIFY(rows() < count);
        for (int r = 0; r < rows(); ++r) QVERIFY(cell(r, EventField::Name).contains(word, Qt::CaseInsensitive));
        QVERIFY(panel_->scopeText().contains(" of " + QLocale().toString(count)));
        // A regular expression anchored at the start.
        panel_->filter()->setText("/^" + QRegularExpression::escape(word) + "/");
        QVERIFY(settled());
        QVERIFY(rows() > 0);
        for (int r = 0; r < rows(); ++r) QVERIFY(cell(r, EventField::Name).startsWith(word));
        panel_->filter()->setText("/(unclosed/");
        QVERIFY(settled());
        QCOMPARE(rows(), 0);
        QVERIFY(panel_->filter()->styleSheet().contains("color"));
        panel_->filter()->clear();
        QVERIFY(settled());
        QCOMPARE(rows(), count);
        panel_->view()->sortByColumn(int(EventField::Duration), Qt::DescendingOrder);
        QVERIFY(settled());
    }

    void clickingARowSelectsItsEvent() {
        panel_->window()->findChild<QDockWidget*>("events")->raise();
        QVERIFY(QTest::qWaitFor([&] { return panel_->view()->isVisible(); }, 2000));
        const QRect cellRect = panel_->view()->visualRect(panel_->model()->index(3, int(EventField::Name)));
        QVERIFY(cellRect.isValid());
        QTest::mouseClick(panel_->view()->viewport(), Qt::LeftButton, {}, cellRect.center());
        const ViewEvent want{0, stream_, eventAt(3).index};
        QVERIFY(session_->selectedEvent() == want);
        QVERIFY(window_->timeline()->selectedEvent() == want);
        QCOMPARE(panel_->view()->currentIndex().row(), 3);
        // The list did not change under the click.
        QVERIFY(settled());
        QCOMPARE(size_t(rows()), expectedCount(lane(), range_));
        // Down: the next row's event.
        QTest::keyClick(panel_->view(), Qt::Key_Down);
        QVERIFY(session_->selectedEvent() == (ViewEvent{0, stream_, eventAt(4).index}));
        // Enter zooms to it; the list keeps to its range.
        QTest::keyClick(panel_->view(), Qt::Key_Return);
        const int64_t start = lane().events.start_ns[eventAt(4).index];
        QVERIFY(session_->visibleRange().first <= start && start <= session_->visibleRange().second);
        QVERIFY(session_->visibleRange().second - session_->visibleRange().first < range_.second - range_.first);
        QVERIFY(session_->selectedRange() == range_);
        QVERIFY(settled());
        QCOMPARE(size_t(rows()), expectedCount(lane(), range_));
    }

    void selectingAnEventSelectsItsRow() {
        const int row = rows() / 2;
        const ViewEvent event{0, stream_, eventAt(row).index};
        session_->selectEvent(event);
        QCOMPARE(panel_->view()->currentIndex().row(), row);
        QVERIFY(panel_->view()->selectionModel()->isRowSelected(row, {}));
        // An event outside the list selects no row.
        uint32_t outside = 0;
        while (lane().events.endNs(outside) > range_.first) ++outside;  // starts and ends before the range
        session_->selectEvent(ViewEvent{0, stream_, outside});
        QVERIFY(!panel_->view()->selectionModel()->hasSelection());
        session_->selectEvent(event);
        QCOMPARE(panel_->view()->currentIndex().row(), row);
    }

    void ctrlCCopiesTheSelectedRowsWithAHeader() {
        panel_->view()->selectionModel()->select(
            QItemSelection(panel_->model()->index(0, 0), panel_->model()->index(2, 0)),
            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        const QStringList lines = panel_->copyText().split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QVERIFY(lines[0].startsWith("Start\tEnd\tDuration\tName\tKind\tRow"));
        QVERIFY(!lines[0].contains("Domain"));  // hidden columns are not copied
        QCOMPARE(lines[1].split('\t').size(), lines[0].split('\t').size());
        QVERIFY(lines[1].contains(cell(0, EventField::Name)));
    }

    void exportWritesEveryRowAsCsv() {
        const auto dir = test::tempDir("gui-events");
        const QString path = QString::fromStdString((dir / "events.csv").string());
        QSignalSpy spy(panel_, &EventsPanel::exported);
        panel_->exportCsv(path);
        QVERIFY(spy.wait(20000));
        QCOMPARE(spy.at(0).at(1).toString(), QString());
        QVERIFY(!std::filesystem::exists((dir / "events.csv.partial")));
        const QStringList lines =
            QString::fromStdString(test::readFile(dir / "events.csv")).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), rows() + 1);
        QVERIFY(lines[0].startsWith("Start,End,Duration,Name,Kind,Row,"));
        QVERIFY(lines[0].endsWith(",Start (ns),End (ns),Duration (ns)"));
        // The longest event first (sorted by duration), its times in plain ns at the end.
        const SourcedEvent first = eventAt(0);
        const int64_t start = lane().events.start_ns[first.index], end = lane().events.endNs(first.index);
        QVERIFY(lines[1].endsWith(QString(",%1,%2,%3").arg(start).arg(end).arg(end - start)));
        QVERIFY(lines[1].startsWith(QString::fromStdString(formatTimestamp(start)) + ","));
        std::filesystem::remove_all(dir);
    }

    void withoutRowsTheSelectedEventsRowIsListed() {
        uint32_t api = 0;
        while (api < report().lanes.size() && report().lanes[api].kind != LaneKind::CudaApi) ++api;
        QVERIFY(api < report().lanes.size());
        session_->setSelectedLanes({});
        QVERIFY(window_->timeline()->selectedRows().empty());
        const Lane& calls = report().lanes[api];
        uint32_t inside = 0;
        while (calls.events.start_ns[inside] < range_.first) ++inside;
        session_->selectEvent(ViewEvent{0, api, inside});
        QVERIFY(settled());
        QCOMPARE(size_t(rows()), expectedCount(calls, range_));
        QVERIFY(panel_->scopeText().contains("selected event's row"));
        QVERIFY(panel_->view()->selectionModel()->hasSelection());
        QVERIFY(eventAt(panel_->view()->currentIndex().row()) == (SourcedEvent{0, inside}));
        // For a person to look at: LANESCOPE_TEST_SCREENSHOTS=DIR saves the window.
        if (const QString dir = qEnvironmentVariable("LANESCOPE_TEST_SCREENSHOTS"); !dir.isEmpty())
            window_->grab().save(dir + "/events.png");
    }

    // An "NVTX on GPU" row's lane is built when the row is drawn (timeline/DeferredLanes.h): its
    // list holds the built lane's ranges, and a click on one selects the NVTX range it stands
    // for, as a click on it in the timeline does.
    void aBuiltNvtxOnGpuRowListsItsRanges() {
        uint32_t projected = 0;
        while (projected < report().lanes.size() && !isDeferredLane(report(), projected)) ++projected;
        QVERIFY(projected < report().lanes.size());
        session_->selectEvent(std::nullopt);
        session_->setSelectedRange(std::nullopt);
        session_->zoomTo(report().meta.begin_ns, report().meta.end_ns);
        session_->setSelectedLanes({{0, projected}});
        panel_->view()->sortByColumn(int(EventField::Start), Qt::AscendingOrder);
        QVERIFY(QTest::qWaitFor([&] { return DeferredLanes::of(report()).ready(projected) != nullptr; }, 30000));
        QVERIFY(settled());
        const Lane& built = *DeferredLanes::of(report()).ready(projected);
        QVERIFY(built.events.size() > 10);
        QCOMPARE(size_t(rows()), expectedCount(built, session_->visibleRange()));
        QVERIFY(size_t(rows()) > 10);
        for (int r = 1; r < rows(); ++r)
            QVERIFY(built.events.start_ns[eventAt(r - 1).index] <= built.events.start_ns[eventAt(r).index]);
        const SourcedEvent first = eventAt(0);
        QCOMPARE(cell(0, EventField::Name),
                 QString::fromStdString(std::string(report().str(built.events.name_id[first.index]))));
        QCOMPARE(cell(0, EventField::Start),
                 QString::fromStdString(formatTimestamp(built.events.start_ns[first.index])));
        QVERIFY(!panel_->view()->isColumnHidden(int(EventField::Domain)));
        if (const QString dir = qEnvironmentVariable("LANESCOPE_TEST_SCREENSHOTS"); !dir.isEmpty())
            window_->grab().save(dir + "/events-nvtx-on-gpu.png");

        panel_->window()->findChild<QDockWidget*>("events")->raise();
        QVERIFY(QTest::qWaitFor([&] { return panel_->view()->isVisible(); }, 2000));
        const QRect cellRect = panel_->view()->visualRect(panel_->model()->index(0, int(EventField::Name)));
        QTest::mouseClick(panel_->view()->viewport(), Qt::LeftButton, {}, cellRect.center());
        const EventRef source = DeferredLanes::of(report()).source(projected, first.index);
        QVERIFY(session_->selectedEvent() == (ViewEvent{0, source.lane, source.index}));
        const Lane& range = report().lanes[source.lane];
        QVERIFY(range.kind == LaneKind::Nvtx || range.kind == LaneKind::NvtxStartEnd);
        QCOMPARE(range.events.name_id[source.index], built.events.name_id[first.index]);
        session_->setSelectedLanes({});
        QVERIFY(settled());
    }

    void aLongListIsBuiltAndSortedOffTheGuiThread() {
        // A second report of two streams of 150,000 kernels each: over the panel's inline limit.
        auto big = std::make_shared<Report>();
        big->strings.intern("");
        big->gpus.push_back({0, big->strings.intern("GPU")});
        const uint32_t names[2] = {big->strings.intern("gemm"), big->strings.intern("relu")};
        big->kernel_configs.push_back({});
        for (int s = 0; s < 2; ++s) {
            Lane l;
            l.kind = LaneKind::GpuStream;
            l.gpu = 0;
            l.name_id = big->strings.intern("Stream " + std::to_string(s));
            for (int i = 0; i < 150000; ++i) {
                l.events.append(int64_t(i) * 1000 + s * 10, int64_t(i) * 1000 + s * 10 + 100 + (i * 7919) % 800,
                                names[i % 2], uint32_t(big->kernels.size()), EventKind::Kernel);
                big->kernels.push_back({0, uint32_t(big->kernels.size())});
            }
            freezeLane(l, big->diagnostics);
            big->lanes.push_back(std::move(l));
        }
        setTimeSpan(*big);
        session_->addReport(big, nullptr);
        QVERIFY(settled());
        QCOMPARE(rows(), 0);  // opening a report clears the picked rows
        panel_->view()->sortByColumn(int(EventField::Start), Qt::AscendingOrder);
        QVERIFY(settled());
        session_->setSelectedLanes({{1, 0}, {1, 1}});
        QVERIFY(panel_->busy());
        QVERIFY(settled());
        QCOMPARE(rows(), 300000);
        QVERIFY(panel_->scopeText().startsWith(QLocale().toString(300000) + " events in 2 rows"));
        for (int r = 1; r < rows(); r += 997)
            QVERIFY(panel_->model()->contents().rows->startNs(eventAt(r - 1)) <=
                    panel_->model()->contents().rows->startNs(eventAt(r)));
        panel_->view()->sortByColumn(int(EventField::Duration), Qt::DescendingOrder);
        QVERIFY(panel_->busy());
        QCOMPARE(panel_->scopeText(), QString("Sorting…"));  // on a worker thread; the old list still shown
        QCOMPARE(rows(), 300000);
        QVERIFY(settled());
        QCOMPARE(rows(), 300000);
        auto duration = [&](int r) {
            const auto& rows = *panel_->model()->contents().rows;
            return rows.endNs(eventAt(r)) - rows.startNs(eventAt(r));
        };
        for (int r = 1; r < rows(); ++r) QVERIFY(duration(r - 1) >= duration(r));
        panel_->filter()->setText("relu");
        QVERIFY(settled());
        QCOMPARE(rows(), 150000);
        panel_->filter()->clear();
        QVERIFY(settled());
    }

    void cleanupTestCase() { window_.reset(); }
};

int runEventsPanelTest(int argc, char** argv) {
    return runGuiTest<EventsPanelTest>(argc, argv, "EventsPanelTest", "gui_events_tests");
}

#include "EventsPanelTest.moc"
