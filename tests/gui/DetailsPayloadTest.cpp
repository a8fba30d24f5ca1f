#include <QApplication>
#include <QTest>
#include <memory>

#include "TestPaths.h"
#include "app/gui/details/EventDetailsHtml.h"
#include "importers/Importer.h"
#include "model/NvtxPayloadDecoder.h"

using namespace lanescope;

// The Details panel's "Payload" section: NCCL's ranges of ddp_rank0 (the thread's range and its
// copy on the NCCL row) show their fields; Python sampling marks of cpu_1gpu theirs; ranges
// without a payload have no such section.
class DetailsPayloadTest : public QObject {
    Q_OBJECT

    static std::unique_ptr<Report> open(const char* file) {
        NullProgress progress;
        ImportResult result = importFile(lanescope::test::dataFile(file), {}, progress);
        return result.ok() ? std::move(result.report()) : nullptr;
    }

private slots:
    void ncclRangesShowTheirPayload() {
        const auto report = open("nsys-2025.3/ddp_rank0.nsys-rep");
        QVERIFY(report);
        size_t shown = 0, without = 0;
        for (uint32_t li = 0; li < report->lanes.size(); ++li) {
            const Lane& lane = report->lanes[li];
            if (lane.kind != LaneKind::Nvtx && lane.kind != LaneKind::Nccl) continue;
            for (uint32_t i = 0; i < lane.events.size(); ++i) {
                const QString html = eventDetailsHtml(*report, {li, i});
                if (!hasNvtxPayload(*report, li, i)) {
                    QVERIFY(!html.contains("Payload"));
                    ++without;
                    continue;
                }
                ++shown;
                QVERIFY(html.contains("<h4 style='margin-bottom:2px'>Payload</h4>"));
                QVERIFY(html.contains("NCCL communicator ID"));
                QVERIFY(html.contains("17496455130211587445"));
                QVERIFY(html.contains("Message size [bytes]"));
                const std::string name(report->str(lane.events.name_id[i]));
                if (name == "ncclAllReduce") {
                    QVERIFY(html.contains(">Reduction operation</td><td>Sum</td>"));
                } else {
                    QCOMPARE(QString::fromStdString(name), QString("ncclBroadcast"));
                    QVERIFY(html.contains(">Root</td><td>0</td>"));
                }
            }
        }
        QCOMPARE(shown, size_t(2 * 48));  // each range and its copy on the NCCL row
        QVERIFY(without > 0);             // the steps' own ranges and the NCCL kernels
    }

    void pythonSamplingMarksShowTheirFrames() {
        const auto report = open("nsys-2025.3/cpu_1gpu.nsys-rep");
        QVERIFY(report);
        size_t shown = 0;
        for (uint32_t li = 0; li < report->lanes.size(); ++li) {
            if (report->lanes[li].kind != LaneKind::Nvtx) continue;
            for (uint32_t i = 0; i < report->lanes[li].instants.size(); ++i) {
                if (!hasNvtxMarkPayload(*report, li, i)) continue;
                const QString html = instantDetailsHtml(*report, {li, i});
                QVERIFY(html.contains("Payload"));
                QVERIFY(html.contains(">Thread state</td>"));
                QVERIFY(html.contains(">Frames[0].Function</td>"));
                ++shown;
            }
        }
        QCOMPARE(shown, size_t(1301));
    }
};

int runDetailsPayloadTest(int argc, char** argv) {
    QApplication app(argc, argv);
    DetailsPayloadTest test;
    return QTest::qExec(&test, argc, argv);
}
#include "DetailsPayloadTest.moc"
