#include <QApplication>
#include <QImage>
#include <QTest>
#include <algorithm>
#include <set>

#include "GuiTestMain.h"
#include "TestPaths.h"
#include "app/gui/MainWindow.h"
#include "timeline/TimelineView.h"

using namespace lanescope;

namespace {

bool viewable(const std::filesystem::path& p) {
    const std::string name = p.filename().string();
    for (const char* ext : {".nsys-rep", ".qdrep", ".sqlite", ".json", ".json.gz", ".pftrace"})
        if (name.ends_with(ext)) return true;
    return false;
}

// Every real file in every format: our captures (tests/data), the hand-made edge shapes, and
// the whole of ../shared/corpus (public files by others; CI has it).
std::vector<std::filesystem::path> everyFile() {
    std::vector<std::filesystem::path> files;
    for (const char* dir : {"nsys-2025.3", "nsys-2022.4", "kineto", "edge"})
        for (const auto& e : std::filesystem::recursive_directory_iterator(test::dataFile(dir)))
            if (e.is_regular_file() && viewable(e.path())) files.push_back(e.path());
    const auto shared = test::sharedFile("");
    if (!shared.empty()) {
        std::set<std::string> ours;
        for (const auto& f : files) ours.insert(f.filename().string());
        for (const auto& e : std::filesystem::recursive_directory_iterator(shared))
            if (e.is_regular_file() && viewable(e.path()) && !ours.count(e.path().filename().string()))
                files.push_back(e.path());
    } else if (qgetenv("CI") == "true") {
        qFatal("../shared/corpus is absent (CI has it)");
    }
    std::sort(files.begin(), files.end());
    return files;
}

// How many distinct colours a picture holds: a drawn timeline has many, an empty one a few.
size_t colours(const QImage& image) {
    std::set<QRgb> seen;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3) seen.insert(image.pixel(x, y));
    return seen.size();
}

}  // namespace

// The viewer's own path on every real file: open (import, finish, the view lanes such as NVTX
// on the GPU, summaries), show it whole, zoom in, and paint. A crash here is a crash a user
// gets; under ASan (CI) a dangling reference is one too. As a new user without Nsight Systems
// (nsys forbidden): every .nsys-rep and .qdrep is read natively.
class EveryFileTest : public QObject {
    Q_OBJECT

private slots:
    void everyFileOpensAndDraws() {
        qputenv("LANESCOPE_NSYS", "off");
        const auto files = everyFile();
        QVERIFY(files.size() >= 20);
        auto isNsysRep = [](const std::filesystem::path& p) {
            return p.extension() == ".nsys-rep" || p.extension() == ".qdrep";
        };
        QVERIFY(std::count_if(files.begin(), files.end(), isNsysRep) >= 6);
        for (const auto& file : files) {
            const QByteArray name = QByteArray::fromStdString(file.string());
            MainWindow window;
            window.resize(1200, 800);
            window.show();
            bool done = false, ok = false;
            window.setAllLoadedCallback([&](bool allOk) {
                done = true;
                ok = allOk;
            });
            window.openFiles({QString::fromStdString(file.string())});
            QVERIFY2(QTest::qWaitFor([&] { return done; }, 120000), name.constData());
            QVERIFY2(ok, name.constData());
            TimelineView* timeline = window.timeline();
            QCOMPARE(timeline->reports().size(), size_t(1));
            if (isNsysRep(file)) {
                QCOMPARE(QString::fromStdString(timeline->reports()[0]->meta.reader), QString("native"));
                QVERIFY2(timeline->reports()[0]->counts().slices > 0, name.constData());
            }
            QVERIFY2(timeline->reports()[0]->counts().slices + timeline->reports()[0]->counts().instants > 0,
                     name.constData());
            const QImage whole = timeline->grab().toImage();
            QVERIFY2(colours(whole) > 8, name.constData());
            QTest::keyClick(timeline, Qt::Key_W);  // zoom in around the cursor, then paint again
            QTest::keyClick(timeline, Qt::Key_W);
            QVERIFY2(!timeline->grab().toImage().isNull(), name.constData());
        }
    }
};

int runEveryFileTest(int argc, char** argv) {
    return runGuiTest<EveryFileTest>(argc, argv, "EveryFileTest", "gui_every_file_tests");
}
#include "EveryFileTest.moc"
