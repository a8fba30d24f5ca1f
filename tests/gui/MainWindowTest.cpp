#include <QApplication>
#include <QTest>
#include <QTextBrowser>
#include <QTreeWidget>

#include "TestPaths.h"
#include "app/gui/MainWindow.h"

// The real window, offscreen: opens a report off the GUI thread and shows its rows.
class MainWindowTest : public QObject {
    Q_OBJECT
private slots:
    void opensReportAndShowsRows() {
        lanescope::MainWindow window;
        bool done = false, ok = false;
        window.setAllLoadedCallback([&](bool allOk) { done = true; ok = allOk; });
        window.show();
        window.openFiles({QString::fromStdString(lanescope::test::dataFile("nsys-2025.3/ddp_rank0.sqlite").string())});
        QVERIFY(QTest::qWaitFor([&] { return done; }, 20000));
        QVERIFY(ok);
        auto* tree = window.findChild<QTreeWidget*>();
        QVERIFY(tree);
        QCOMPARE(tree->topLevelItemCount(), 1);
        QCOMPARE(tree->topLevelItem(0)->text(0), QString("ddp_rank0.sqlite"));
        QCOMPARE(tree->topLevelItem(0)->child(0)->text(0), QString("GPU 0: NVIDIA H200"));
        auto* summary = window.findChild<QTextBrowser*>();
        QVERIFY(summary->toPlainText().contains("NVIDIA H200"));
        QVERIFY(window.windowTitle().startsWith("ddp_rank0.sqlite"));
    }
};

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName("LanescopeTests");
    MainWindowTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "MainWindowTest.moc"
