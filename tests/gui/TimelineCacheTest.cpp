// The timeline's geometry cache: a pan within the built window reuses it, a zoom, hidden rows or
// a theme change rebuild it, and what it paints is pixel for pixel what a fresh view paints.
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

#include "GuiTestMain.h"
#include "TestPaths.h"
#include "analysis/NvtxProjection.h"
#include "importers/Importer.h"
#include "tests/support/SyntheticReport.h"
#include "timeline/TimelineView.h"

using namespace lanescope;

namespace {

std::shared_ptr<const Report> importViewed(const std::filesystem::path& path) {
    ImportOptions options;
    options.add_view_lanes = [](Report& r) { addNvtxProjectionLanes(r); };
    NullProgress progress;
    ImportResult result = importFile(path, options, progress);
    if (!result.ok()) return nullptr;
    return std::move(result.report());
}

QImage paint(TimelineView& view) {
    QImage image(view.size(), QImage::Format_RGB32);
    view.render(&image, QPoint(), QRegion(), QWidget::RenderFlags());
    return image;
}

// A fresh view showing exactly what `view` shows: nothing cached from another window.
QImage paintFresh(const TimelineView& view, const std::shared_ptr<const Report>& report) {
    TimelineView fresh;
    fresh.resize(view.size());
    fresh.setReports({report});
    fresh.zoomTo(view.viewport().visibleBegin(), view.viewport().visibleEnd(), false);
    return paint(fresh);
}

// Pixels that differ from the lane background's two stripe colours and the grid: drawn events.
int eventPixels(const QImage& image, int headerWidth) {
    int n = 0;
    for (int y = TimelineView::kRulerHeight; y < image.height(); y += 3)
        for (int x = headerWidth; x < image.width(); ++x) n += image.pixel(x, y) != image.pixel(image.width() - 30, y);
    return n;
}

}  // namespace

class TimelineCacheTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::vector<std::shared_ptr<const Report>> reports_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        const std::filesystem::path synthetic = dir_.filePath("synthetic.sqlite").toStdString();
        bench::writeSyntheticReport(synthetic, 200000);
        for (const std::filesystem::path& path : {test::dataFile("nsys-2025.3/cpu_1gpu.sqlite"), synthetic}) {
            reports_.push_back(importViewed(path));
            QVERIFY2(reports_.back(), path.c_str());
        }
    }

    void panReusesZoomRebuildsPictureUnchanged() {
        for (const auto& report : reports_) {
            TimelineView view;
            view.resize(1400, 800);
            view.setReports({report});
            const int64_t whole = report->meta.end_ns - report->meta.begin_ns;
            for (int64_t span : {whole, whole / 4, whole / 9, whole / 150}) {
                const int64_t begin = report->meta.begin_ns + whole / 3;
                view.zoomTo(begin, begin + span, false);
                const QImage first = paint(view);
                QVERIFY(eventPixels(first, view.headerWidth()) > 500);  // events are drawn
                QCOMPARE(first, paintFresh(view, report));
                const size_t builds = view.geometryBuilds();
                // Pans of a few pixels and of a third of the screen, both ways: reused.
                for (int64_t delta : {span / 400, span / 3, -span / 2, span / 7}) {
                    view.panBy(delta);
                    const QImage panned = paint(view);
                    QCOMPARE(view.geometryBuilds(), builds);
                    QCOMPARE(panned, paintFresh(view, report));
                }
                // A pan past the built window rebuilds it (the whole report cannot pan).
                size_t expected = builds;
                if (span < whole / 2) {
                    view.panBy(span);
                    QCOMPARE(paint(view), paintFresh(view, report));
                    QCOMPARE(view.geometryBuilds(), ++expected);
                }
                // A zoom rebuilds it.
                view.zoomAround(1.25, view.viewport().visibleBegin() + span / 2);
                QCOMPARE(paint(view), paintFresh(view, report));
                QCOMPARE(view.geometryBuilds(), ++expected);
            }
        }
    }

    void hiddenRowsAndThemeRebuild() {
        const auto& report = reports_.back();
        TimelineView view;
        view.resize(1400, 800);
        view.setReports({report});
        paint(view);
        size_t builds = view.geometryBuilds();
        std::string hidden;  // a lane row
        for (const LayoutRow& row : view.rows().rows())
            if (row.type == Row::Type::Lane && hidden.empty()) hidden = row.key;
        QVERIFY(!hidden.empty());
        view.rows().hide(hidden);
        view.rowsChanged();
        const QImage afterHiding = paint(view);
        QCOMPARE(view.geometryBuilds(), ++builds);
        TimelineView fresh;
        fresh.resize(view.size());
        fresh.setReports({report});
        fresh.rows().hide(hidden);
        fresh.rowsChanged();
        QCOMPARE(afterHiding, paint(fresh));
        QCOMPARE(paint(view), afterHiding);  // a repaint of the same view reuses
        QCOMPARE(view.geometryBuilds(), builds);
        QPalette dark = view.palette();
        dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x20));
        dark.setColor(QPalette::Base, QColor(0x18, 0x18, 0x18));
        dark.setColor(QPalette::WindowText, Qt::white);
        view.setPalette(dark);
        paint(view);
        QCOMPARE(view.geometryBuilds(), builds + 1);
    }
};

int runTimelineCacheTest(int argc, char** argv) {
    return runGuiTest<TimelineCacheTest>(argc, argv, "timeline-cache-test", "timeline-cache-test");
}

#include "TimelineCacheTest.moc"
