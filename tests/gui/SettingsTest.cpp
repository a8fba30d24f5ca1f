// Settings round trip: choices made in one window (row order and collapsed rows per report
// format, the Ranks panel's alignment, theme, dock layout and sizes, window size, recent files)
// come back in a new window. QSettings writes to a temporary folder, never the user's.
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include "TestPaths.h"
#include "app/gui/MainWindow.h"
#include "app/gui/Theme.h"
#include "app/gui/panels/ranks/ComparePanel.h"
#include "app/log/Logging.h"
#include "timeline/TimelineView.h"

using namespace lanescope;

class SettingsTest : public QObject {
    Q_OBJECT

    QTemporaryDir settingsDir_;
    std::unique_ptr<MainWindow> window_;

    static QString data(const char* relative) { return QString::fromStdString(test::dataFile(relative).string()); }

    // A new window with the files opened and shown.
    void openWindow(const QStringList& files) {
        window_ = std::make_unique<MainWindow>();
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        reopen(files);
    }

    void reopen(const QStringList& files) {
        bool done = false, ok = false;
        window_->setAllLoadedCallback([&](bool allOk) {
            done = true;
            ok = allOk;
        });
        window_->openFiles(files);
        QVERIFY(QTest::qWaitFor([&] { return done; }, 20000));
        QVERIFY(ok);
        window_->setAllLoadedCallback({});
    }

    void closeWindow() {
        window_->close();  // saves, as closing the real window does
        window_.reset();
    }

    QAction* action(const QString& text) {
        for (QAction* a : window_->findChildren<QAction*>())
            if (a->text() == text) return a;
        return nullptr;
    }

    const LayoutRow* firstRow(int level) {
        for (const LayoutRow& row : window_->timeline()->rows().rows())
            if (row.level == level) return &row;
        return nullptr;
    }

    const LayoutRow* rowWithKey(const std::string& key) {
        for (const LayoutRow& row : window_->timeline()->rows().rows())
            if (row.key == key) return &row;
        return nullptr;
    }

    QDockWidget* dock(const char* name) { return window_->findChild<QDockWidget*>(name); }

private slots:
    void initTestCase() {
        QVERIFY(settingsDir_.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir_.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir_.path());
        QSettings().clear();
    }

    void choicesComeBackInANewWindow() {
        const QString nsys = data("nsys-2025.3/train_1gpu.sqlite"),
                      kineto = data("kineto/train_1gpu_rank0.pt.trace.json");
        openWindow({nsys});
        window_->resize(1234, 777);
        // Nsight SQLite reports: CPU rows first, and the first GPU/process group collapsed.
        QVERIFY(action("&CPU rows first"));
        action("&CPU rows first")->trigger();
        const LayoutRow* group = firstRow(1);
        QVERIFY(group && group->expandable && group->expanded);
        QCOMPARE(group->type, Row::Type::Process);  // CPU first
        const std::string collapsedKey = group->key;
        window_->timeline()->rows().setExpanded(collapsedKey, false);
        window_->timeline()->rowsChanged();
        // Ranks aligned by wall clock, dark theme, Markers hidden, Statistics higher.
        window_->findChild<ComparePanel*>()->setMode(AlignMode::Clock);
        QVERIFY(action("&Dark"));
        action("&Dark")->trigger();
        QVERIFY(isDark(QApplication::palette()));
        dock("markers")->hide();
        const int statsHeight = dock("statistics")->height();
        window_->resizeDocks({dock("statistics")}, {statsHeight + 100}, Qt::Vertical);
        QTRY_VERIFY2(dock("statistics")->height() > statsHeight + 30,
                     qPrintable(QString("%1 -> %2").arg(statsHeight).arg(dock("statistics")->height())));
        const int resizedHeight = dock("statistics")->height();
        // A PyTorch trace keeps its own preset: GPU rows first.
        action("&Close")->trigger();
        reopen({kineto});
        action("&GPU rows first")->trigger();
        QCOMPARE(firstRow(1)->type, Row::Type::Gpu);
        closeWindow();
        applyTheme(Theme::System);

        applyTheme(savedTheme());  // as main() does before making the window
        openWindow({nsys});
        QCOMPARE(window_->size(), QSize(1234, 777));
        QVERIFY(action("&CPU rows first")->isChecked());
        QCOMPARE(firstRow(1)->type, Row::Type::Process);
        QVERIFY(rowWithKey(collapsedKey));
        QVERIFY(!rowWithKey(collapsedKey)->expanded);
        QCOMPARE(window_->findChild<ComparePanel*>()->mode(), AlignMode::Clock);
        QVERIFY(action("&Dark")->isChecked());
        QVERIFY(isDark(window_->timeline()->palette()));
        QVERIFY(dock("markers")->isHidden());
        QTRY_VERIFY(std::abs(dock("statistics")->height() - resizedHeight) <= 2);
        QMenu* recent = nullptr;
        for (QMenu* m : window_->findChildren<QMenu*>())
            if (m->title() == "Open &Recent") recent = m;
        QVERIFY(recent && recent->actions().size() == 2);
        QCOMPARE(recent->actions()[0]->statusTip(), QFileInfo(nsys).absoluteFilePath());
        QCOMPARE(recent->actions()[1]->statusTip(), QFileInfo(kineto).absoluteFilePath());
        // The PyTorch trace's own preset comes back too.
        action("&Close")->trigger();
        reopen({kineto});
        QVERIFY(action("&GPU rows first")->isChecked());
        QCOMPARE(firstRow(1)->type, Row::Type::Gpu);
        closeWindow();
    }

    // The memory limit is a setting: a report that needs more is refused before it is read,
    // with the estimate; back to 0 (the machine's free memory) it opens.
    void memoryLimitIsASetting() {
        window_ = std::make_unique<MainWindow>();
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        QVERIFY(action("&Memory limit for opening…"));
        QSettings().setValue("import/memoryLimitMb", 1);
        bool done = false, ok = true;
        window_->setAllLoadedCallback([&](bool allOk) {
            done = true;
            ok = allOk;
        });
        window_->openFiles({data("nsys-2025.3/train_1gpu.sqlite")});
        QVERIFY(QTest::qWaitFor([&] { return done; }, 20000));
        QVERIFY(!ok);
        const QString message = window_->statusBar()->currentMessage();
        QVERIFY2(message.contains("needs about") && message.contains("1.0 MB is available"), qPrintable(message));
        QSettings().setValue("import/memoryLimitMb", 0);
        window_->setAllLoadedCallback({});
        reopen({data("nsys-2025.3/train_1gpu.sqlite")});
        closeWindow();
    }
};

int runSettingsTest(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("LANESCOPE_CACHE", "off");  // never the user's saved models
    QApplication app(argc, argv);
    QApplication::setOrganizationName("LanescopeTests");
    QApplication::setApplicationName("SettingsTest");
    lanescope::logging::init("gui_settings_tests", false, false);  // no log lines on stdout
    SettingsTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "SettingsTest.moc"
