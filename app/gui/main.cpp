// lanescope: the desktop viewer (CLI.md).
#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <cstdio>
#include <spdlog/spdlog.h>

#include "app/gui/AppIcon.h"
#include "app/gui/MainWindow.h"
#include "app/gui/SampleReport.h"
#include "app/gui/Theme.h"
#include "app/log/Logging.h"

namespace {

// Saves a PNG of the window once every file has loaded and the window has painted.
void arrangeScreenshot(lanescope::MainWindow& window, const QString& out) {
    window.setAllLoadedCallback([&window, out](bool ok) {
        QTimer::singleShot(200, &window, [&window, out, ok] {
            window.repaint();
            const bool saved = window.grab().save(out, "PNG");
            if (!saved) std::fprintf(stderr, "lanescope: cannot write %s\n", qPrintable(out));
            spdlog::info("screenshot {} {}", out.toStdString(), saved ? "saved" : "not written");
            QApplication::exit(!ok ? 2 : saved ? 0 : 1);
        });
    });
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName("Lanescope");
    QApplication::setApplicationName("Lanescope");
    QApplication::setApplicationVersion(LANESCOPE_VERSION);
    QGuiApplication::setDesktopFileName("lanescope");  // matches lanescope.desktop: the task bar finds the icon
    QApplication::setWindowIcon(lanescope::applicationIcon());

    QCommandLineParser parser;
    parser.setApplicationDescription("Timeline viewer for GPU and CPU profiler reports");
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption screenshot("screenshot", "Open the files, save a PNG of the window to OUT, exit.", "OUT");
    const QCommandLineOption size("size", "Window size for --screenshot, WIDTHxHEIGHT.", "WxH", "1400x900");
    const QCommandLineOption range("range", "Show this time range once loaded (ns on the report's timeline).", "START:END");
    const QCommandLineOption theme("theme", "Colours for this run: system, light or dark (View > Theme remembers one).", "NAME");
    const QCommandLineOption verbose("verbose", "Debug lines in the log, and the log on stderr too.");
    parser.addOptions({screenshot, size, range, theme, verbose});
    parser.addPositionalArgument("files", "Reports to open (the bundled sample when none).", "[FILE...]");
    parser.process(app);

    const std::filesystem::path log = lanescope::logging::init("lanescope", true, parser.isSet(verbose));
    spdlog::info("lanescope {} starting: Qt {}, platform {}, log {}", LANESCOPE_VERSION, qVersion(),
                 QGuiApplication::platformName().toStdString(), log.empty() ? "(none)" : log.string());
    std::optional<lanescope::Theme> chosen = lanescope::savedTheme();
    if (parser.isSet(theme)) {
        chosen = lanescope::themeFromName(parser.value(theme));
        if (!chosen) {
            std::fprintf(stderr, "lanescope: --theme wants system, light or dark\n");
            return 1;
        }
    }
    lanescope::applyTheme(*chosen);

    QStringList files = parser.positionalArguments();
    if (files.isEmpty()) {
        const QString sample = lanescope::sampleReportPath();
        if (!sample.isEmpty()) files << sample;
    }
    lanescope::MainWindow window;
    if (parser.isSet(screenshot)) {
        const QStringList wh = parser.value(size).split('x');
        if (wh.size() != 2 || wh[0].toInt() <= 0 || wh[1].toInt() <= 0) {
            std::fprintf(stderr, "lanescope: --size wants WIDTHxHEIGHT, e.g. 1400x900\n");
            return 1;
        }
        window.resize(wh[0].toInt(), wh[1].toInt());
        arrangeScreenshot(window, parser.value(screenshot));
    }
    if (parser.isSet(range)) {
        const QStringList parts = parser.value(range).split(':');
        bool okBegin = false, okEnd = false;
        const qint64 begin = parts.value(0).toLongLong(&okBegin), end = parts.value(1).toLongLong(&okEnd);
        if (parts.size() != 2 || !okBegin || !okEnd || end <= begin) {
            std::fprintf(stderr, "lanescope: --range wants START_NS:END_NS with START < END\n");
            return 1;
        }
        window.setInitialRange(begin, end);
    }
    window.show();
    window.openFiles(files);
    return QApplication::exec();
}
