// lanescope: the desktop viewer (CLI.md).
#include <spdlog/spdlog.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QDeadlineTimer>
#include <QTimer>
#include <cstdio>
#include <string_view>

#include "app/gui/AppIcon.h"
#include "app/gui/MainWindow.h"
#include "app/gui/SampleReport.h"
#include "app/gui/Theme.h"
#include "app/gui/panels/query/QueryPanel.h"
#include "app/gui/panels/ranks/ComparePanel.h"
#include "app/log/Logging.h"
#include "importers/MemoryPolicy.h"
#include "timeline/TimelineView.h"

namespace {

// Saves a PNG of the window once every file has loaded, the panels on screen are filled (the
// Statistics table, the PyTorch tab, ...), the Ranks panel has compared them, the Query panel
// has run its query, the rows in sight computed when drawn (NVTX on GPU) are built (up to a
// minute more), and the window has painted.
void saveScreenshot(lanescope::MainWindow& window, const QString& out, bool ok, QDeadlineTimer deadline) {
    const auto* compare = window.findChild<lanescope::ComparePanel*>();
    const auto* query = window.findChild<lanescope::QueryPanel*>();
    window.timeline()->repaint();  // a frame of the rows as they are now asks for those in sight
    const bool busy = (compare && compare->busy()) || (query && query->busy()) || !window.shownPanelsReady() ||
                      window.timeline()->deferredLanesPending() > 0;
    if (busy && !deadline.hasExpired()) {
        QTimer::singleShot(100, &window, [&window, out, ok, deadline] { saveScreenshot(window, out, ok, deadline); });
        return;
    }
    QTimer::singleShot(200, &window, [&window, out, ok] {
        window.repaint();
        const bool saved = window.grab().save(out, "PNG");
        if (!saved) std::fprintf(stderr, "lanescope: cannot write %s\n", qPrintable(out));
        spdlog::info("screenshot {} {}", out.toStdString(), saved ? "saved" : "not written");
        QApplication::exit(!ok ? 2 : saved ? 0 : 1);
    });
}

void arrangeScreenshot(lanescope::MainWindow& window, const QString& out) {
    window.setAllLoadedCallback([&window, out](bool ok) { saveScreenshot(window, out, ok, QDeadlineTimer(60'000)); });
}

// The command line (CLI.md).
struct Options {
    QCommandLineOption screenshot{"screenshot", "Open the files, save a PNG of the window to OUT, exit.", "OUT"};
    QCommandLineOption size{"size", "Window size for --screenshot, WIDTHxHEIGHT.", "WxH", "1400x900"};
    QCommandLineOption range{"range", "Show this time range once loaded (ns on the report's timeline).", "START:END"};
    QCommandLineOption theme{"theme", "Colours for this run: system, light or dark (View > Theme remembers one).",
                             "NAME"};
    QCommandLineOption verbose{"verbose", "Debug lines in the log, and the log on stderr too."};
    QCommandLineOption reader{"reader",
                              "How .nsys-rep/.qdrep files are read: native (the default) or nsys (nsys export).",
                              "native|nsys", "native"};
    QCommandLineOption sql{"sql", "Show the Query panel and run QUERY on the report once it is open.", "QUERY"};
    QCommandLineOption pytorch{"pytorch", "Show the PyTorch panel on VIEW (operators, kernels, ...).", "VIEW"};

    void addTo(QCommandLineParser& parser) const {
        parser.setApplicationDescription("Timeline viewer for GPU and CPU profiler reports");
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOptions({screenshot, size, range, theme, verbose, reader, sql, pytorch});
        parser.addPositionalArgument(
            "files",
            "Reports, or rank summary folders (lanescope-cli summarize), to open (the bundled sample when none).",
            "[FILE|SUMMARY_DIR...]");
    }
};

void nameApplication() {
    QCoreApplication::setOrganizationName("Lanescope");
    QCoreApplication::setApplicationName("Lanescope");
    QCoreApplication::setApplicationVersion(LANESCOPE_VERSION);
}

// --version and --help print text and exit: they need no display (over ssh, in scripts).
bool onlyAsksForText(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--version" || arg == "-v" || arg == "--help" || arg == "-h" || arg == "--help-all") return true;
    }
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    const Options options;
    lanescope::returnFreedMemoryToTheSystem();
    if (onlyAsksForText(argc, argv)) {
        QCoreApplication app(argc, argv);
        nameApplication();
        QCommandLineParser parser;
        options.addTo(parser);
        parser.process(app);  // prints and exits
        return 0;
    }
    QApplication app(argc, argv);
    nameApplication();
    QGuiApplication::setDesktopFileName("lanescope");  // matches lanescope.desktop: the task bar finds the icon
    QApplication::setWindowIcon(lanescope::applicationIcon());

    QCommandLineParser parser;
    options.addTo(parser);
    parser.process(app);
    const auto& [screenshot, size, range, theme, verbose, reader, sql, pytorch] = options;

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
    if (parser.value(reader) != "native" && parser.value(reader) != "nsys") {
        std::fprintf(stderr, "lanescope: --reader wants native or nsys\n");
        return 1;
    }
    const auto nsysReader =
        parser.value(reader) == "nsys" ? lanescope::NsysReader::NsysExport : lanescope::NsysReader::Native;

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
    if (parser.isSet(sql)) window.showQuery(parser.value(sql));
    if (parser.isSet(pytorch)) window.showPytorch(parser.value(pytorch));
    window.openFiles(files, nsysReader);
    return QApplication::exec();
}
