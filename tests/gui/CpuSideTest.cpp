#include <QApplication>
#include <QSignalSpy>
#include <QTest>
#include <cstdlib>
#include <memory>

#include "TestPaths.h"
#include "app/gui/details/EventDetailsHtml.h"
#include "app/gui/details/ReportSummary.h"
#include "importers/Importer.h"
#include "model/CudaMemory.h"
#include "model/EventDetails.h"
#include "support/TinyReport.h"
#include "timeline/RowTree.h"
#include "timeline/TimelineView.h"

using namespace lanescope;

// What the viewer shows of the CPU side of cpu_1gpu (samples, context switches, backtraces):
// the rows it gets and the call stack in the Details panel; and how a counter row is filled.
class CpuSideTest : public QObject {
    Q_OBJECT

    std::unique_ptr<Report> report_;

    static const Row* find(const std::vector<Row>& rows, Row::Type type, const std::string& label = {}) {
        for (const Row& row : rows) {
            if (row.type == type && (label.empty() || row.label == label)) return &row;
            if (const Row* inner = find(row.children, type, label)) return inner;
        }
        return nullptr;
    }

    // The view, tall enough for every row, showing report_ (not owned), on screen.
    void showReport(TimelineView& view) {
        view.resize(1400, 3000);
        view.setReports({std::shared_ptr<const Report>(report_.get(), [](const Report*) {})});
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
    }

    // The first row holding exactly one CPU samples lane.
    const LayoutRow* firstSamplesRow(TimelineView& view) const {
        for (const LayoutRow& row : view.rows().rows())
            if (row.type == Row::Type::Lane && row.lanes.size() == 1 &&
                report_->lanes[size_t(row.lanes[0])].kind == LaneKind::CpuSamples)
                return &row;
        return nullptr;
    }

private slots:
    void initTestCase() {
        NullProgress progress;
        ImportResult result = importFile(lanescope::test::dataFile("nsys-2025.3/cpu_1gpu.sqlite"), {}, progress);
        QVERIFY(result.ok());
        report_ = std::move(result.report());
    }

    void rowsOfThreadsAndCores() {
        const std::vector<Row> rows = buildRowTree(*report_);
        const Row* cpus = find(rows, Row::Type::Cpus);
        QVERIFY(cpus);
        size_t cores = 0, coreRuns = 0, running = 0;
        for (const Lane& lane : report_->lanes) {
            if (lane.kind == LaneKind::CpuCore) {
                ++cores;
                coreRuns += lane.events.size();
            }
            if (lane.kind == LaneKind::ThreadState)
                for (uint32_t p : lane.events.payload) running += threadStateOf(p) == ThreadRunState::Running;
        }
        // The whole-CPU utilization row first, then a row per core.
        QCOMPARE(cpus->children.size(), cores + 1);
        QCOMPARE(cpus->children.front().type, Row::Type::Counter);
        QCOMPARE(cpus->children.front().index, report_->cpu_utilization_counter);
        const uint64_t utilizationSamples =
            report_->counters.at(size_t(report_->cpu_utilization_counter)).time_ns.size();
        QCOMPARE(cpus->events, coreRuns + utilizationSamples);
        QCOMPARE(running, coreRuns);  // every running interval is on one core row
        QCOMPARE(uint64_t(running), report_->counts().context_switches);
        // The main thread has its state, samples, NVTX, CUDA API and OS runtime rows, in that order.
        const Row* main = find(rows, Row::Type::Thread, "python3 [452]");
        QVERIFY(main);
        QStringList kinds;
        for (const Row& lane : main->children)
            kinds << QString::fromStdString(std::string(laneKindName(report_->lanes[lane.index].kind)));
        QCOMPARE(kinds,
                 QStringList({"Thread state", "CPU samples", "NVTX", "CUDA API", "OS runtime", "Profiler overhead"}));
    }

    void detailsShowTheCallStack() {
        size_t withStack = 0;
        for (uint32_t li = 0; li < report_->lanes.size(); ++li) {
            const Lane& lane = report_->lanes[li];
            if (lane.kind != LaneKind::CudaApi && lane.kind != LaneKind::OsRuntime) continue;
            for (uint32_t i = 0; i < lane.events.size(); ++i) {
                const uint32_t stack = backtraceOf(*report_, {li, i});
                const QString html = eventDetailsHtml(*report_, {li, i});
                if (stack == kNoStack) {
                    QVERIFY(!html.contains("Call stack"));
                    continue;
                }
                ++withStack;
                const auto frames = stackFrames(*report_, stack);
                QVERIFY(html.contains(QString("Call stack (%1 frames)").arg(frames.size())));
                QVERIFY(html.contains(QString::fromStdString(frames.front().function).toHtmlEscaped()));
            }
        }
        // 1,281 CUDA API calls and 95 OS runtime calls of cpu_1gpu carry a backtrace.
        QCOMPARE(withStack, report_->backtraces.size());
        QCOMPARE(withStack, size_t(1281 + 95));
    }

    // Hovering the CPU samples row of the main thread shows a sample's call stack.
    void sampleTooltipShowsItsStack() {
        TimelineView view;
        showReport(view);
        const LayoutRow* samples = firstSamplesRow(view);
        QVERIFY(samples);
        const Lane& lane = report_->lanes[size_t(samples->lanes[0])];
        const int y = TimelineView::kRulerHeight + samples->y + samples->height / 2;
        QString tip;
        for (int x = 0; x < view.width() && tip.isEmpty(); ++x) tip = view.instantTooltip(QPoint(x, y));
        QVERIFY(tip.startsWith("<b>CPU sample</b>"));
        bool namesAFrame = false;  // the innermost function of one of the lane's samples
        for (size_t i = 0; i < lane.instants.size() && !namesAFrame; ++i)
            namesAFrame = tip.contains(
                QString::fromStdString(std::string(report_->str(lane.instants.name_id[i]))).toHtmlEscaped());
        QVERIFY(namesAFrame);
        QVERIFY(view.instantTooltip(QPoint(5, y)).isEmpty());  // over the row header
    }

    // A click on a sample selects it (no event is under it): the Details panel gets the sample
    // with its thread and call stack; a click on an event then clears it.
    void clickingASampleShowsItInDetails() {
        TimelineView view;
        showReport(view);
        const LayoutRow* samples = firstSamplesRow(view);
        QVERIFY(samples);
        const int y = TimelineView::kRulerHeight + samples->y + samples->height / 2;
        int x = view.headerWidth();
        while (x < view.width() && !view.instantAt(QPoint(x, y))) ++x;
        QVERIFY(x < view.width());
        QSignalSpy picked(&view, &TimelineView::instantSelected);
        QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(x, y));
        QCOMPARE(picked.count(), 1);
        const std::optional<ViewInstant> in = view.selectedInstant();
        QVERIFY(in);
        QCOMPARE(in->lane, uint32_t(samples->lanes[0]));
        const QString html = instantDetailsHtml(*report_, {in->lane, in->instant});
        QVERIFY(html.contains("<h3 style='margin-bottom:4px'>CPU sample</h3>"));
        const Lane& lane = report_->lanes[in->lane];
        QVERIFY(html.contains(QString::number(lane.instants.time_ns[in->instant]) + " ns"));
        const auto frames = stackFrames(*report_, lane.instants.payload[in->instant]);
        QVERIFY(!frames.empty());
        QVERIFY(html.contains(QString("Call stack (%1 frames)").arg(frames.size())));
        QVERIFY(html.contains("Thread"));
        // Selecting an event drops the picked sample.
        view.selectEvent(ViewEvent{0, 0, 0});
        QVERIFY(!view.selectedInstant());
    }

    // A counter row (the utilization row above is one) is filled under each pixel column's
    // highest sample: to the top of its chart where the counter is at its maximum, to the middle
    // at half of it, and not at all before its first sample or where it is 0.
    void counterRowIsFilledUnderItsSamples() {
        test::TinyReport t;
        t.process(42, "proc");
        Counter power;
        power.name_id = t.r.strings.intern("Power");
        power.unit_id = t.r.strings.intern("W");
        power.gpu = t.gpu(0, "GPU 0");
        power.time_ns = {400'000, 500'000, 700'000, 850'000};
        power.value = {0.0, 10.0, 5.0, 0.0};
        t.r.counters.push_back(std::move(power));
        t.r.meta.begin_ns = 0;
        t.r.meta.end_ns = 1'000'000;
        TimelineView view;
        view.resize(2000, 400);
        view.setReports({std::make_shared<const Report>(std::move(t.r))});
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const LayoutRow* row = nullptr;
        for (const LayoutRow& r : view.rows().rows())
            if (r.type == Row::Type::Counter) row = &r;
        QVERIFY(row);
        const QImage image = view.grab().toImage();
        const int chartTop = TimelineView::kRulerHeight + row->y + 4, base = chartTop + row->height - 8;
        // The highest pixel of the fill's blue in the row's column at t_ns; base when none.
        auto filledFrom = [&](int64_t t_ns) {
            const int x = int(view.xOf(t_ns));
            for (int y = chartTop - 2; y < base; ++y) {
                const QRgb c = image.pixel(x, y);
                if (qBlue(c) > qRed(c) + 40) return y;
            }
            return base;
        };
        QVERIFY2(std::abs(filledFrom(600'000) - chartTop) <= 1, qPrintable(QString::number(filledFrom(600'000))));
        QVERIFY(std::abs(filledFrom(775'000) - (chartTop + base) / 2) <= 1);
        QCOMPARE(filledFrom(300'000), base);
        QCOMPARE(filledFrom(900'000), base);
        for (int64_t t_ns = 510'000; t_ns < 840'000; t_ns += 10'000) QVERIFY(filledFrom(t_ns) < base);
        // Hovering it tells the value in force and since when; nothing before its first sample.
        const int y = TimelineView::kRulerHeight + row->y + row->height / 2;
        const QString tip = view.counterTooltip(QPoint(int(view.xOf(600'000)), y));
        QVERIFY2(tip.startsWith("<b>Power</b><br>10 W from "), qPrintable(tip));
        QVERIFY(view.counterTooltip(QPoint(int(view.xOf(300'000)), y)).isEmpty());
    }

    // A CUDA memory usage counter's tooltip names the allocation behind its step and the call
    // that made it.
    void cudaMemoryTooltipNamesTheAllocation() {
        test::TinyReport t;
        const int32_t process = t.process(42, "proc");
        const int32_t thread = t.thread(process, 43, "main");
        const int32_t gpu = t.gpu(0, "GPU 0");
        const uint32_t api = t.cpuLane(LaneKind::CudaApi, thread, "CUDA API");
        t.event(api, 100'000, 300'000, "cudaMalloc", EventKind::CudaApiCall, 7);
        t.freeze();
        Counter memory;
        memory.name_id = t.r.strings.intern("CUDA memory usage");
        memory.unit_id = t.r.strings.intern("bytes");
        memory.process = process;
        memory.gpu = gpu;
        memory.time_ns = {200'000};
        memory.value = {2097152.0};
        t.r.counters.push_back(std::move(memory));
        t.r.cuda_memory_events.push_back(
            {200'000, 0x7f0000000000, 2097152, 0, process, gpu, 1, 7, kNoVariableName, MemKind::Device, false});
        t.r.meta.begin_ns = 0;
        t.r.meta.end_ns = 1'000'000;
        TimelineView view;
        view.resize(2000, 600);
        view.setReports({std::make_shared<const Report>(std::move(t.r))});
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const LayoutRow* row = nullptr;
        for (const LayoutRow& r : view.rows().rows())
            if (r.type == Row::Type::Counter) row = &r;
        QVERIFY(row);
        const QString tip =
            view.counterTooltip(QPoint(int(view.xOf(500'000)), TimelineView::kRulerHeight + row->y + row->height / 2));
        QVERIFY2(tip.contains("<b>CUDA memory usage</b><br>"), qPrintable(tip));
        QVERIFY2(tip.contains("Allocation of 2,097,152 B (2.10 MB), Device, at 0x7f0000000000 by cudaMalloc"),
                 qPrintable(tip));
    }

    // On cpu_1gpu every allocation was recorded at the start: the tooltip lists the first few and
    // counts the others.
    void cudaMemoryTooltipOnARealReport() {
        TimelineView view;
        showReport(view);
        const LayoutRow* row = nullptr;
        for (const LayoutRow& r : view.rows().rows())
            if (r.type == Row::Type::Counter && isCudaMemoryCounter(*report_, report_->counters[size_t(r.index)]))
                row = &r;
        QVERIFY(row);
        const int64_t middle = (report_->meta.begin_ns + report_->meta.end_ns) / 2;
        const QString tip =
            view.counterTooltip(QPoint(int(view.xOf(middle)), TimelineView::kRulerHeight + row->y + row->height / 2));
        QVERIFY2(tip.contains("Allocation of"), qPrintable(tip));
        QVERIFY2(tip.contains(QString("%1 more at this time").arg(report_->cuda_memory_events.size() - 4)),
                 qPrintable(tip));
    }

    // Hovering a GPU's row describes the GPU as the report does (cpu_1gpu's export:
    // TARGET_INFO_GPU), in its header as over its lanes where no event is; a report that
    // describes no GPU gives no tooltip.
    void gpuRowTooltipDescribesTheGpu() {
        TimelineView view;
        showReport(view);
        const LayoutRow* row = nullptr;
        for (const LayoutRow& r : view.rows().rows())
            if (r.type == Row::Type::Gpu) row = &r;
        QVERIFY(row);
        const int y = TimelineView::kRulerHeight + row->y + row->height / 2;
        const QString tip = view.gpuTooltip(QPoint(10, y));
        QCOMPARE(tip, QString("<b>NVIDIA H100 80GB HBM3 (GH100), compute capability 9.0</b>"
                              "<br>132 SMs at 1.98 GHz<br>79.2 GiB memory at 3.35 TB/s<br>50 MiB L2 cache"
                              "<br>per SM: 64 warps, 32 blocks, 65536 registers, 228 KiB shared memory"
                              "<br>bus 0000:00:06.0<br>UUID c12a8566-9b3b-1faa-e711-979d4c5c024e"));
        for (const LayoutRow& r : view.rows().rows())
            if (r.type != Row::Type::Gpu)
                QVERIFY(view.gpuTooltip(QPoint(10, TimelineView::kRulerHeight + r.y + 2)).isEmpty());

        test::TinyReport t;
        const int32_t process = t.process(42, "proc");
        const int32_t gpu = t.gpu(0, "GPU without a description");
        t.event(t.gpuLane(LaneKind::GpuStream, process, gpu, 7, "Stream 7"), 100, 200, "k", EventKind::Kernel);
        t.r.meta.begin_ns = 0;
        t.r.meta.end_ns = 1000;
        t.freeze();
        TimelineView tiny;
        tiny.resize(800, 400);
        tiny.setReports({std::make_shared<const Report>(std::move(t.r))});
        tiny.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tiny));
        bool sawGpuRow = false;
        for (const LayoutRow& r : tiny.rows().rows())
            if (r.type == Row::Type::Gpu) {
                sawGpuRow = true;
                QVERIFY(tiny.gpuTooltip(QPoint(10, TimelineView::kRulerHeight + r.y + r.height / 2)).isEmpty());
            }
        QVERIFY(sawGpuRow);
    }

    // The Details panel without a selection names the machine the report was recorded on.
    void reportSummaryNamesTheMachine() {
        const QString html = reportSummaryHtml(*report_);
        QVERIFY2(html.contains("Machine</td><td>vm, Ubuntu 24.04.3 LTS, 16 \u00D7 Intel(R) Xeon(R) Processor, "
                               "NVIDIA driver 580.159.04, CUDA 13.0</td>"),
                 qPrintable(html));
    }
};

int runCpuSideTest(int argc, char** argv) {
    QApplication app(argc, argv);
    CpuSideTest test;
    return QTest::qExec(&test, argc, argv);
}
#include "CpuSideTest.moc"
