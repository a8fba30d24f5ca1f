// The window's finish: the ? overlay (opens on ? and F1, lists every menu shortcut, closes on
// any key or click), a tooltip on every control, the About box's library versions, the dark
// theme reaching the timeline, and import lines in the log file.
#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include "TestPaths.h"
#include "app/gui/AppIcon.h"
#include "app/gui/MainWindow.h"
#include "app/gui/Theme.h"
#include "app/gui/dialogs/AboutDialog.h"
#include "app/gui/dialogs/ShortcutsOverlay.h"
#include "app/log/Logging.h"
#include "timeline/TimelineView.h"

using namespace lanescope;

class ChromeTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::unique_ptr<MainWindow> window_;

    ShortcutsOverlay* overlay() { return window_->findChild<ShortcutsOverlay*>(); }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir_.path());
        qputenv("XDG_STATE_HOME", dir_.filePath("state").toUtf8());
        QCOMPARE(logging::init("lanescope", true, false).string(),
                 dir_.filePath("state/lanescope/lanescope.log").toStdString());
        window_ = std::make_unique<MainWindow>();
        bool done = false;
        window_->setAllLoadedCallback([&](bool) { done = true; });
        window_->resize(1400, 900);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        window_->openFiles({QString::fromStdString(test::dataFile("nsys-2025.3/train_1gpu.sqlite").string()),
                            dir_.filePath("missing.sqlite")});
        QVERIFY(QTest::qWaitFor([&] { return done; }, 20000));
        window_->setAllLoadedCallback({});  // done ends here: a later load must not reach it
    }

    void importsAndFailuresAreLogged() {
        QFile log(dir_.filePath("state/lanescope/lanescope.log"));
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(log.readAll());
        QVERIFY2(text.contains("train_1gpu.sqlite: imported as nsys-sqlite"), qPrintable(text));
        QVERIFY(text.contains("train_1gpu.sqlite: stages: "));
        QVERIFY(text.contains(" kernels, "));
        QVERIFY(text.contains("missing.sqlite: cannot import (not_found)"));
    }

    void questionMarkShowsTheOverlayAndAnyKeyClosesIt() {
        QVERIFY(overlay() && overlay()->isHidden());
        window_->timeline()->setFocus();
        QTest::keyClick(window_->timeline(), Qt::Key_Question);
        QVERIFY(overlay()->isVisible());
        QCOMPARE(overlay()->geometry(), window_->rect());
        QTest::keyClick(overlay(), Qt::Key_Escape);
        QVERIFY(overlay()->isHidden());
        QTest::keyClick(window_->timeline(), Qt::Key_F1);
        QVERIFY(overlay()->isVisible());
        QTest::mouseClick(overlay(), Qt::LeftButton, {}, QPoint(20, 20));
        QVERIFY(overlay()->isHidden());
        // Typing ? into the row filter types it.
        auto* filter = window_->findChild<QLineEdit*>();
        filter->setFocus();
        QTest::keyClick(filter, Qt::Key_Question);
        QVERIFY(overlay()->isHidden());
        filter->clear();
    }

    void overlayListsEveryMenuShortcut() {
        QString listed;
        for (const ShortcutLine& line : shortcutLines()) listed += line.keys + ", ";
        for (QAction* a : window_->findChildren<QAction*>())
            for (const QKeySequence& key : a->shortcuts()) {
                const QString text = key.toString(QKeySequence::NativeText);
                QVERIFY2(listed.contains(text + ",") || listed.contains(text + " "),
                         qPrintable(QString("%1 (%2) is not in the overlay").arg(text, a->text())));
            }
    }

    void everyControlHasATooltip() {
        QStringList missing;
        for (QWidget* w : window_->findChildren<QWidget*>()) {
            const bool control = qobject_cast<QAbstractButton*>(w) || qobject_cast<QComboBox*>(w) ||
                                 qobject_cast<QAbstractSpinBox*>(w) ||
                                 (qobject_cast<QLineEdit*>(w) && !qobject_cast<QComboBox*>(w->parentWidget()) &&
                                  !qobject_cast<QAbstractSpinBox*>(w->parentWidget()));
            // Buttons Qt makes inside its own widgets (dock title bars, table corners, clear buttons,
            // tab scrollers) are not ours.
            const bool ours = !w->objectName().startsWith("qt_") && !w->inherits("QDockWidgetTitleButton") &&
                              !w->inherits("QTableCornerButton") && !w->inherits("QLineEditIconButton") &&
                              !(w->parentWidget() && w->parentWidget()->inherits("QTabBar"));
            if (control && ours && w->toolTip().isEmpty())
                missing << QString("%1 '%2' in %3")
                               .arg(w->metaObject()->className(), w->objectName(),
                                    w->parentWidget()->metaObject()->className());
        }
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join("\n")));
    }

    void aboutListsTheLibraries() {
        const QString html = aboutHtml();
        QVERIFY(html.contains(LANESCOPE_VERSION));
        for (const char* name : {"Qt", "SQLite", "Protobuf", "simdjson", "zlib", "spdlog"})
            QVERIFY2(html.contains(name), name);
        QVERIFY(html.contains(qVersion()));
        for (const auto& [name, version] : libraryVersions())
            QVERIFY2(version.contains(QRegularExpression("^\\d+\\.\\d+")), qPrintable(name + ": " + version));
    }

    void iconHasEveryHicolorSize() {
        const QIcon icon = applicationIcon();
        QVERIFY(!icon.isNull());
        for (int size : {16, 32, 48, 256}) QVERIFY(icon.availableSizes().contains(QSize(size, size)));
    }

    // (Qt tells open widgets of a palette change only once exec() runs, as in the app; here
    // each theme gets a new window, as at start-up.)
    void darkThemeReachesTheTimeline() {
        for (Theme theme : {Theme::Dark, Theme::Light}) {
            applyTheme(theme);
            MainWindow window;
            window.resize(1000, 700);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QCOMPARE(isDark(window.timeline()->palette()), theme == Theme::Dark);
            // The lane area's background (bottom right, below the rows) follows.
            const QImage image = window.timeline()->grab().toImage();
            const int gray = qGray(image.pixel(image.width() - 30, image.height() - 30));
            QVERIFY2(theme == Theme::Dark ? gray < 80 : gray > 170, qPrintable(QString::number(gray)));
        }
        applyTheme(Theme::System);
    }

    void cleanupTestCase() { window_.reset(); }
};

int runChromeTest(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("LANESCOPE_CACHE", "off");  // never the user's saved models
    QApplication app(argc, argv);
    QApplication::setOrganizationName("LanescopeTests");
    QApplication::setApplicationName("ChromeTest");
    ChromeTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "ChromeTest.moc"
