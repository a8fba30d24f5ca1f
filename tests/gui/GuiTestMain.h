#pragma once
#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include "app/log/Logging.h"

// The main() of a GUI test of the real window: offscreen, the window layout, recent files and
// the saved models in a temporary folder (never the user's settings or cache), the cache off
// unless a test turns it on, no log lines on stdout.
template <class Test>
int runGuiTest(int argc, char** argv, const char* application, const char* logName) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName("LanescopeTests");
    QApplication::setApplicationName(application);
    QTemporaryDir settings;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings.path());
    qputenv("XDG_CACHE_HOME", settings.filePath("cache").toUtf8());
    qputenv("LANESCOPE_CACHE", "off");
    lanescope::logging::init(logName, false, false);
    Test test;
    return QTest::qExec(&test, argc, argv);
}
