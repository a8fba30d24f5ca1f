#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include "GuiTestMain.h"
#include "TestPaths.h"
#include "app/gui/MainWindow.h"
#include "app/log/Logging.h"
#include "timeline/TimelineView.h"

using namespace lanescope;

// As a new user without Nsight Systems: every .nsys-rep and .qdrep of the corpus opens in the
// real window, read natively (nsys forbidden), with its events on the timeline.
class OpenNsysRepTest : public QObject {
    Q_OBJECT

private slots:
    void everyReportOpensWithoutNsys() {
        qputenv("LANESCOPE_NSYS", "off");
        std::vector<std::filesystem::path> files;
        for (const char* name : {"nsys-2025.3/train_1gpu", "nsys-2025.3/ddp_rank0", "nsys-2025.3/ddp_rank1",
                                 "nsys-2025.3/cpu_1gpu", "nsys-2025.3/train_metrics", "nsys-2022.4/cpu_nvtx_threads"})
            files.push_back(lanescope::test::dataFile(std::string(name) + ".nsys-rep"));
        const auto shared = lanescope::test::sharedFile("public");
        if (!shared.empty()) {
            for (const auto& entry : std::filesystem::recursive_directory_iterator(shared))
                if (entry.path().extension() == ".qdrep" || entry.path().extension() == ".nsys-rep")
                    files.push_back(entry.path());
        } else if (qgetenv("CI") == "true") {
            QFAIL("../shared/corpus/public is absent (CI has it)");
        }
        QVERIFY(files.size() >= 6);
        for (const auto& file : files) {
            MainWindow window;
            window.resize(1200, 800);
            window.show();
            bool done = false, ok = false;
            window.setAllLoadedCallback([&](bool allOk) {
                done = true;
                ok = allOk;
            });
            window.openFiles({QString::fromStdString(file.string())});
            QVERIFY2(QTest::qWaitFor([&] { return done; }, 60000), file.c_str());
            QVERIFY2(ok, file.c_str());
            const auto& reports = window.timeline()->reports();
            QCOMPARE(reports.size(), size_t(1));
            QCOMPARE(QString::fromStdString(reports[0]->meta.reader), QString("native"));
            QVERIFY2(reports[0]->counts().slices > 0, file.c_str());
        }
    }
};

int main(int argc, char** argv) {
    return runGuiTest<OpenNsysRepTest>(argc, argv, "OpenNsysRepTest", "gui_open_nsys_rep_tests");
}
#include "OpenNsysRepTest.moc"
