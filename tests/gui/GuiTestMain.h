#pragma once
#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include "app/log/Logging.h"

// The main() of a GUI test of the real window: offscreen, the window layout and recent files in
// a temporary folder (never the user's settings), no log lines on stdout.
template <class Test>
int runGuiTest(int argc, char** argv, const char* application, const char* logName) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName("LanescopeTests");
    QApplication::setApplicationName(application);
    QTemporaryDir settings;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings.path());
    lanescope::logging::init(logName, false, false);
    Test test;
    return QTest::qExec(&test, argc, argv);
}
