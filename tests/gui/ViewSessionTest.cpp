// The view session (app/gui/ViewSession.h): what is open and how it is viewed, with and
// without a timeline attached, and the timeline's gestures coming back to it.
#include <QApplication>
#include <QSignalSpy>
#include <QTest>

#include "app/gui/ViewSession.h"
#include "tests/support/TinyReport.h"
#include "timeline/TimelineView.h"

using namespace lanescope;

namespace {

// One thread with one lane of three calls inside [begin, end].
std::shared_ptr<const Report> tinyReport(int64_t begin, int64_t end) {
    test::TinyReport t;
    const int32_t process = t.process(1, "python");
    const int32_t thread = t.thread(process, 1, "main");
    const uint32_t lane = t.cpuLane(LaneKind::OsRuntime, thread, "OS runtime");
    const int64_t third = (end - begin) / 3;
    for (int i = 0; i < 3; ++i)
        t.event(lane, begin + i * third, begin + (i + 1) * third - 1, "step " + std::to_string(i),
                EventKind::OsRuntimeCall);
    t.freeze();
    t.r.meta.begin_ns = begin;
    t.r.meta.end_ns = end;
    t.r.meta.source_path = "tiny.sqlite";
    return std::make_shared<const Report>(std::move(t.r));
}

}  // namespace

class ViewSessionTest : public QObject {
    Q_OBJECT

private slots:
    // No timeline (the bench, a panel alone): the session keeps the view itself.
    void keepsTheViewWithoutATimeline() {
        ViewSession session;
        QSignalSpy reports(&session, &ViewSession::reportsChanged), offsets(&session, &ViewSession::offsetsChanged),
            visible(&session, &ViewSession::visibleRangeChanged), selection(&session, &ViewSession::selectionChanged),
            events(&session, &ViewSession::eventSelected), markers(&session, &ViewSession::markersChanged);
        session.setReports({tinyReport(0, 3000), tinyReport(500, 6500)});
        QCOMPARE(reports.count(), 1);
        QVERIFY(session.offsets() == (std::vector<int64_t>{0, 0}));
        QCOMPARE(session.wholeRange(), TimeInterval(0, 6500));
        QCOMPARE(session.visibleRange(), session.wholeRange());
        QVERIFY(session.correlation(0) == nullptr);

        // Offsets move the whole; unchanged offsets say nothing.
        offsets.clear();
        session.setOffsets({0, 1000});
        QCOMPARE(offsets.count(), 1);
        QCOMPARE(session.offset(1), int64_t(1000));
        QCOMPARE(session.offset(7), int64_t(0));
        QCOMPARE(session.wholeRange(), TimeInterval(0, 7500));
        session.setOffsets({0, 1000});
        QCOMPARE(offsets.count(), 1);

        // Zoom history: remembered jumps only, newest first.
        visible.clear();
        session.zoomTo(100, 200);
        session.zoomTo(150, 160, false);
        session.zoomTo(120, 130);
        QCOMPARE(visible.count(), 3);
        QCOMPARE(session.historySize(), size_t(2));
        QVERIFY(session.back());
        QCOMPARE(session.visibleRange(), TimeInterval(150, 160));
        QVERIFY(session.back());
        QCOMPARE(session.visibleRange(), TimeInterval(0, 6500));  // as shown before the offsets moved
        QVERIFY(!session.back());

        // Selection: the range, then F fits it; the event.
        session.setSelectedRange(TimeInterval(10, 20));
        QCOMPARE(selection.count(), 1);
        session.fitSelection();
        QCOMPARE(session.visibleRange(), TimeInterval(10, 20));
        session.selectEvent(ViewEvent{1, 0, 2});
        QCOMPARE(events.count(), 1);
        QVERIFY(session.selectedEvent() == (ViewEvent{1, 0, 2}));

        // Markers stay in time order.
        session.addMarker(500);
        session.addMarker(100, "first");
        QCOMPARE(markers.count(), 2);
        QCOMPARE(session.markers().front().name, QString("first"));
        QCOMPARE(session.markers().back().name, QString("Marker 1"));
        session.renameMarker(1, "later");
        QCOMPARE(session.markers()[1].name, QString("later"));
        session.removeMarker(0);
        session.removeMarker(5);  // no such marker
        QCOMPARE(session.markers().size(), size_t(1));

        // Opening one more keeps the offsets of the open ones, clears the selection and history.
        session.zoomTo(1, 2);
        session.addReport(tinyReport(0, 100), nullptr);
        QVERIFY(session.offsets() == (std::vector<int64_t>{0, 1000, 0}));
        QVERIFY(!session.selectedRange() && !session.selectedEvent());
        QCOMPARE(session.historySize(), size_t(0));
        QCOMPARE(session.markers().size(), size_t(1));
        session.closeAll();
        QVERIFY(session.reports().empty() && session.offsets().empty() && session.markers().empty());
    }

    // With a timeline: the session drives it, and the timeline's gestures come back to it.
    void drivesTheTimelineAndFollowsIt() {
        TimelineView view;
        view.resize(1200, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        ViewSession session;
        session.attach(&view);
        session.setReports({tinyReport(0, 3'000'000), tinyReport(0, 3'000'000)});
        QCOMPARE(view.reports().size(), size_t(2));
        session.setOffsets({0, 500'000});
        QCOMPARE(view.reportOffset(1), int64_t(500'000));
        QCOMPARE(session.wholeRange(), TimeInterval(0, 3'500'000));

        QSignalSpy visible(&session, &ViewSession::visibleRangeChanged);
        session.zoomTo(1'000'000, 2'000'000);
        QCOMPARE(view.viewport().visibleBegin(), int64_t(1'000'000));
        QCOMPARE(visible.count(), 1);
        // Home on the timeline is remembered; Backspace there goes back.
        QTest::keyClick(&view, Qt::Key_Home);
        QCOMPARE(session.historySize(), size_t(2));
        QTest::keyClick(&view, Qt::Key_Backspace);
        QCOMPARE(session.visibleRange(), TimeInterval(1'000'000, 2'000'000));

        // A range dragged on the timeline is the session's; one set on the session is drawn.
        QSignalSpy selection(&session, &ViewSession::selectionChanged);
        const int y = TimelineView::kRulerHeight + 10;
        QTest::mousePress(&view, Qt::LeftButton, {}, QPoint(view.headerWidth() + 100, y));
        QTest::mouseMove(&view, QPoint(view.headerWidth() + 300, y));
        QTest::mouseRelease(&view, Qt::LeftButton, {}, QPoint(view.headerWidth() + 300, y));
        QCOMPARE(selection.count(), 1);
        QVERIFY(session.selectedRange().has_value());
        QVERIFY(session.selectedRange() == view.selectedRange());
        session.setSelectedRange(std::nullopt);
        QVERIFY(!view.selectedRange().has_value());

        // An event selected on the session is the timeline's, and back.
        session.selectEvent(ViewEvent{1, 0, 1}, true);
        QVERIFY(view.selectedEvent() == (ViewEvent{1, 0, 1}));
        view.selectEvent(ViewEvent{0, 0, 0});
        QVERIFY(session.selectedEvent() == (ViewEvent{0, 0, 0}));

        // Ctrl+M on the timeline drops the session's marker.
        QTest::keyClick(&view, Qt::Key_M, Qt::ControlModifier);
        QCOMPARE(session.markers().size(), size_t(1));
    }
};

int runViewSessionTest(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("LANESCOPE_CACHE", "off");  // never the user's saved models
    QApplication app(argc, argv);
    ViewSessionTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "ViewSessionTest.moc"
