#include <execinfo.h>
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "analysis/NvtxProjection.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ViewSession.h"
#include "app/gui/WhenShown.h"
#include "app/gui/import/NvtxOnGpuLanes.h"
#include "app/gui/import/SaveModel.h"
#include "app/gui/panels/statistics/ShownStats.h"
#include "app/gui/panels/statistics/StatsPanel.h"
#include "app/log/Logging.h"
#include "importers/Importer.h"
#include "importers/cache/KeptResults.h"
#include "importers/cache/ReportCache.h"
#include "model/Correlation.h"
#include "tests/bench/Args.h"
#include "tests/bench/Commands.h"
#include "tests/bench/Measure.h"
#include "timeline/DeferredLanes.h"
#include "timeline/ReportSummaries.h"
#include "timeline/TimelineView.h"

namespace lanescope::bench {
namespace {

// This process's peak resident set size so far, in MB.
double peakRssMb() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) * 1024.0 / kBytesPerMb;
}

// The import alone of FILE, on every core, in a child process: "SECONDS" or "" on failure,
// and the child's peak RSS. What the viewer's figures are measured against.
ChildRun importAlone(const std::string& file) {
    return runInChild([&] {
        ImportOptions options;
        options.threads = std::max(1u, std::thread::hardware_concurrency());
        NullProgress progress;
        const Stopwatch watch;
        const ImportResult result = importFile(file, options, progress);
        return result.ok() ? std::to_string(watch.seconds()) : std::string();
    });
}

// Prints the resident set size when it has grown 25 MB or more since the last line: where the
// viewer's memory goes, by time since the start.
void traceRss(double seconds) {
    static double printedMb = 0;
    long pages = 0, resident = 0;
    if (FILE* statm = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(statm, "%ld %ld", &pages, &resident) != 2) resident = 0;
        std::fclose(statm);
    }
    const double mb = double(resident) * double(::sysconf(_SC_PAGESIZE)) / kBytesPerMb;
    if (mb < printedMb + 25) return;
    printedMb = mb;
    std::fprintf(stderr, "rss %.0f MB at %.3f s\n", mb, seconds);
}

// Imports FILE as the viewer does (its NVTX-on-GPU lanes deferred) and saves the model in the
// default cache folder, in a child process, with the NVTX-on-GPU lanes in it (and the ranges they
// stand for beside it), as a first open saves those it showed, and (keepStatistics) the Statistics table the window
// opens on kept beside it: what the viewer then reopens. "MB" of the entry, or "" on failure.
ChildRun saveForReopening(const std::string& file, bool keepStatistics) {
    return runInChild([&] {
        ImportOptions options;
        options.threads = std::max(1u, std::thread::hardware_concurrency());
        options.add_view_lanes = [](Report& r) { addDeferredNvtxProjectionLanes(r); };
        NullProgress progress;
        ImportResult result = importFile(file, options, progress);
        const ReportCache cache;
        const auto key = cache.keyFor(file, ReportCache::variant(NsysReader::Native, "", true));
        if (!result.ok() || !key) return std::string();
        const Report& report = *result.report();
        KeptResults::attach(report, std::make_shared<const ReportCache>(), *key);
        const auto builder = [&](const Report& r, size_t lane) { return nvtxOnGpuLanes(r, lane, options.threads); };
        for (size_t li = 0; li < report.lanes.size(); ++li) DeferredLanes::of(report).build(li, builder);
        std::string error;
        if (!saveModel(cache, report, *key, error)) return std::string();
        // And the Statistics table the window opens on, as the viewer keeps it after a first open.
        if (keepStatistics)
            (void)computeShownStats(report, TimeRange::all(), true, 0, true, StatsPanel::shownRowsOnly());
        return std::to_string(double(std::filesystem::file_size(cache.entryPath(*key))) / kBytesPerMb);
    });
}

// The open reports' deferred lanes ("NVTX on GPU"), all of them or those built.
uint64_t deferredLanes(const MainWindow& window, bool builtOnly = false) {
    uint64_t n = 0;
    for (const auto& report : window.session()->reports())
        for (size_t li = 0; li < report->lanes.size(); ++li)
            if (isDeferredLane(*report, li) && (!builtOnly || DeferredLanes::of(*report).ready(li))) ++n;
    return n;
}

// The "NVTX on GPU" lanes the open reports hold in their model (a reopen's, saved filled), and the
// longest time, over them, a click on one of their events takes to find the NVTX range it
// stands for (the kept sources read back, keptNvtxOnGpuSource), in ms; each one must be found.
std::pair<uint64_t, double> modelProjectedLanes(const MainWindow& window) {
    uint64_t lanes = 0;
    double slowestMs = 0;
    for (const auto& report : window.session()->reports())
        for (size_t li = 0; li < report->lanes.size(); ++li) {
            const Lane& lane = report->lanes[li];
            if (lane.kind != LaneKind::NvtxGpuProjection || isDeferredLane(*report, li) || lane.events.size() == 0)
                continue;
            ++lanes;
            const auto start = std::chrono::steady_clock::now();
            const auto source = keptNvtxOnGpuSource(*report, li, uint32_t(lane.events.size() - 1));
            slowestMs = std::max(
                slowestMs, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
            if (!source) std::fprintf(stderr, "lanescope-bench: lane %zu: no NVTX range kept for its events\n", li);
        }
    return {lanes, slowestMs};
}

// LANESCOPE_BENCH_DEBUG=1: where the GUI thread is while it stalls. A watchdog thread signals
// it once a tick is 80 ms late, and the handler prints its call stack (backtrace_symbols_fd
// allocates nothing) on stderr, once per stall.
std::atomic<int64_t> lastTickNs{0};
void printStack(int) {
    void* frames[48];
    const int n = ::backtrace(frames, 48);
    ::backtrace_symbols_fd(frames, n, STDERR_FILENO);
    const char end[] = "-- end of the GUI thread's stack\n";
    (void)!::write(STDERR_FILENO, end, sizeof end - 1);
}
std::jthread stallWatchdog(pthread_t gui) {
    std::signal(SIGUSR2, printStack);
    return std::jthread([gui](std::stop_token stop) {
        int64_t signalled = -1;
        while (!stop.stop_requested()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            const int64_t tick = lastTickNs.load();
            const int64_t now = std::chrono::steady_clock::now().time_since_epoch().count();
            if (tick != 0 && tick != signalled && now - tick > 80'000'000) {
                signalled = tick;
                ::pthread_kill(gui, SIGUSR2);
            }
        }
    });
}

}  // namespace

// lanescope-bench open FILE [--after-ms M] [--from-cache [--model-only]] [--pytorch VIEW]: the viewer's own way
// from File > Open to a filled window, offscreen, against the import alone of the same file (run
// first, in a child). The report cache is a new temporary folder: the viewer imports the file and
// saves its model after, as on a first open. --from-cache: a child saves the model there first,
// with the NVTX-on-GPU lanes in it, as a first open saves those it showed, and the Statistics
// table the window opens on kept beside it (--model-only: not that table, as before results were
// kept), and the viewer reopens it from the cache (cache_entry_mb: the entry's size;
// projected_lanes_in_model and projected_source_click_ms: modelProjectedLanes).
// The real main window opens FILE (import off the GUI thread, then the timeline and the
// panels), and a 5 ms timer on the GUI thread measures how late the event loop comes back to
// it, which is how late a click or a key would be handled. Measured while the report loads
// and for M ms after the window is complete (default 3000). Prints first_paint_s (start to the
// first frame showing rows), open_s (start to a frame with the report's rows drawn, the deferred
// lanes in sight built, and every panel on screen filled), report_ready_s (start to the report
// handed to the window), deferred_lanes (the "NVTX on GPU" lanes, projected when drawn),
// deferred_lanes_built_at_open (those in sight at open) and deferred_lanes_built_s (start to the
// last of them built).
// --pytorch VIEW: the PyTorch panel shown on that view's tab, which is then one of the panels
// filled (MainWindow::showPytorch).
// --panels: then each bottom panel brought to the front in turn, as a click on its tab does
// (panels behind a tab compute nothing until then): panel_NAME_s, the time until it is filled,
// and panel_NAME_max_stall_ms, the GUI thread's longest stall meanwhile.
int openCommand(int argc, char** argv) {
    const Args args = parseArgs(argc, argv, 2, {"after-ms", "pytorch"}, {"from-cache", "model-only", "panels"});
    if (!args.error.empty()) return usageError(args.error);
    if (args.positional.size() != 1) return usageError("open needs one FILE");
    const auto afterMs = args.options.count("after-ms") ? parseCount(args.options.at("after-ms")) : 3000;
    if (!afterMs) return usageError("--after-ms needs a positive count");
    const std::string file = args.positional.front();

    const ChildRun alone = importAlone(file);  // before Qt starts threads: runInChild forks
    if (!alone.ok || alone.output.empty()) {
        std::fprintf(stderr, "lanescope-bench: %s cannot be imported\n", file.c_str());
        return kExitBadInput;
    }
    QTemporaryDir cacheHome;  // never the user's cache
    qputenv("XDG_CACHE_HOME", cacheHome.path().toUtf8());
    qunsetenv("LANESCOPE_CACHE");
    const bool fromCache = args.flags.count("from-cache") > 0;
    ChildRun saved;
    if (fromCache && (!(saved = saveForReopening(file, !args.flags.count("model-only"))).ok || saved.output.empty())) {
        std::fprintf(stderr, "lanescope-bench: %s cannot be saved in the cache\n", file.c_str());
        return kExitBadInput;
    }

    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    qInstallMessageHandler([](QtMsgType, const QMessageLogContext&, const QString&) {});
    int qtArgc = 1;
    char name[] = "lanescope-bench";
    char* qtArgv[] = {name, nullptr};
    QApplication app(qtArgc, qtArgv);
    QApplication::setOrganizationName("LanescopeBench");  // not the user's settings
    logging::init("lanescope-bench", false, false);       // no log lines among the figures
    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    if (args.options.count("pytorch")) window.showPytorch(QString::fromStdString(args.options.at("pytorch")));

    // Gaps between ticks of a 5 ms timer, beyond its 5 ms: the GUI thread's stalls.
    constexpr int kTickMs = 5;
    std::vector<double> loading, after;
    bool reportReady = false, ok = false, complete = false, paintedReport = false;
    double reportReadyS = 0, firstPaintS = 0, openS = 0, peakAtOpenMb = 0;
    QElapsedTimer clock, sinceTick;
    auto now = [&] { return clock.nsecsElapsed() / 1e9; };
    // --panels: each bottom dock raised in turn once the window is complete.
    struct PanelFigures {
        QString dock;
        double startS = -1, onScreenS = -1, seconds = -1, maxStallMs = 0;
    };
    std::vector<PanelFigures> panels;  // the window's bottom docks, in the window's order
    if (args.flags.count("panels"))
        for (QDockWidget* dock : window.findChildren<QDockWidget*>())
            if (window.dockWidgetArea(dock) == Qt::BottomDockWidgetArea) panels.push_back({dock->objectName()});
    size_t panelAt = 0;  // the panel raised last, while it fills
    QTimer panelPoll;
    QObject::connect(&panelPoll, &QTimer::timeout, [&] {
        if (panelAt < panels.size() && panels[panelAt].startS >= 0) {  // raised: filled yet?
            PanelFigures& panel = panels[panelAt];
            const auto* dock = window.findChild<QDockWidget*>(panel.dock);
            if (panel.onScreenS < 0 && dock && onScreen(dock->widget())) panel.onScreenS = now();
            // Filled: in front for 50 ms (its computation starts when Qt says it is shown) with
            // nothing on screen busy; at most 300 s.
            const bool filled = panel.onScreenS >= 0 && now() - panel.onScreenS > 0.05 && window.shownPanelsReady();
            if (!filled && now() - panel.startS < 300) return;
            panel.seconds = now() - panel.startS;
            ++panelAt;
        }
        if (panelAt == panels.size()) {
            panelPoll.stop();
            QTimer::singleShot(int(*afterMs), &app, &QApplication::quit);
            return;
        }
        if (auto* dock = window.findChild<QDockWidget*>(panels[panelAt].dock)) {
            panels[panelAt].startS = now();
            dock->show();
            dock->raise();
        } else {
            ++panelAt;
        }
    });
    // Complete: the report's rows drawn and the panels on screen filled; then M ms more (or the
    // panels in turn).
    size_t deferredBuiltAtOpen = 0;  // the deferred lanes in sight at open, built before it
    auto checkComplete = [&] {
        if (complete || !paintedReport || !window.shownPanelsReady() || window.timeline()->deferredLanesPending() > 0)
            return;
        complete = true;
        openS = now();
        deferredBuiltAtOpen = deferredLanes(window, true);
        peakAtOpenMb = peakRssMb();
        if (!panels.empty())
            panelPoll.start(10);
        else
            QTimer::singleShot(int(*afterMs), &app, &QApplication::quit);
    };
    double deferredBuiltS = 0;  // the last deferred lanes built (start to then)
    QObject::connect(window.timeline(), &TimelineView::deferredLanesBuilt, [&] { deferredBuiltS = now(); });
    QObject::connect(window.timeline(), &TimelineView::framePainted, [&](int rows) {
        if (rows == 0) return;
        if (firstPaintS == 0) firstPaintS = now();
        paintedReport = paintedReport || reportReady;
        checkComplete();
    });
    // LANESCOPE_BENCH_DEBUG=1: the stalls over 100 ms with the GUI thread's stack in them, and
    // each 25 MB the resident set grows, on stderr.
    const bool debug = qEnvironmentVariableIsSet("LANESCOPE_BENCH_DEBUG");
    std::jthread watchdog;
    if (debug) watchdog = stallWatchdog(::pthread_self());
    QTimer ticker;
    ticker.setTimerType(Qt::PreciseTimer);
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        const double stall = std::max(0.0, sinceTick.nsecsElapsed() / 1e6 - kTickMs);
        sinceTick.restart();
        if (debug && stall > 100) std::fprintf(stderr, "stall %.1f ms ending at %.3f s\n", stall, now());
        lastTickNs = std::chrono::steady_clock::now().time_since_epoch().count();
        if (debug) traceRss(now());
        (complete ? after : loading).push_back(stall);
        if (complete && panelAt < panels.size())
            panels[panelAt].maxStallMs = std::max(panels[panelAt].maxStallMs, stall);
        checkComplete();
    });
    window.setAllLoadedCallback([&](bool allOk) {
        reportReadyS = now();
        reportReady = true;
        ok = allOk;
        window.timeline()->update();  // the next frame shows the report's rows
    });
    QTimer::singleShot(0, [&] {
        clock.start();
        sinceTick.start();
        ticker.start(kTickMs);
        window.openFiles({QString::fromStdString(file)});
    });
    QTimer::singleShot(600'000, &app, &QApplication::quit);  // a report that never finishes
    app.exec();
    if (watchdog.joinable()) {
        watchdog.request_stop();
        watchdog.join();
    }
    if (!complete || !ok) {
        std::fprintf(stderr, "lanescope-bench: %s did not open\n", file.c_str());
        return kExitBadInput;
    }
    auto percentile = [](std::vector<double> v, double p) {
        if (v.empty()) return 0.0;
        std::sort(v.begin(), v.end());
        return v[std::min(v.size() - 1, size_t(p * double(v.size())))];
    };
    const double importS = std::stod(alone.output);
    printValue("import_s", importS, 3);
    printValue("import_peak_rss_mb", alone.peak_rss_mb, 1);
    if (fromCache) printValue("cache_entry_mb", std::stod(saved.output), 1);
    printValue("first_paint_s", firstPaintS, 3);
    printValue("report_ready_s", reportReadyS, 3);
    printValue("open_s", openS, 3);
    printValue("open_over_import", openS / importS, 2);
    printValue("deferred_lanes", deferredLanes(window));
    printValue("deferred_lanes_built_at_open", uint64_t(deferredBuiltAtOpen));
    if (deferredBuiltS > 0) printValue("deferred_lanes_built_s", deferredBuiltS, 3);
    if (fromCache) {
        const auto [lanes, clickMs] = modelProjectedLanes(window);
        printValue("projected_lanes_in_model", lanes);
        printValue("projected_source_click_ms", clickMs, 1);
    }
    printValue("gui_max_stall_loading_ms", percentile(loading, 1.0), 1);
    printValue("gui_p99_stall_loading_ms", percentile(loading, 0.99), 1);
    printValue("gui_max_stall_after_ms", percentile(after, 1.0), 1);
    printValue("gui_p99_stall_after_ms", percentile(after, 0.99), 1);
    printValue("gui_ticks", uint64_t(loading.size() + after.size()));
    printValue("peak_rss_mb_at_open", peakAtOpenMb, 1);
    printValue("peak_rss_mb", peakRssMb(), 1);
    printValue("rss_over_import", peakRssMb() / alone.peak_rss_mb, 2);
    for (const PanelFigures& panel : panels) {
        // The time to fill, less the 50 ms it must have been on screen.
        printValue(("panel_" + panel.dock.toStdString() + "_s").c_str(), std::max(0.0, panel.seconds - 0.05), 3);
        printValue(("panel_" + panel.dock.toStdString() + "_max_stall_ms").c_str(), panel.maxStallMs, 1);
    }
    // What the viewer keeps beside the model, per report part, in MB.
    for (const auto& report : window.session()->reports()) {
        printValue("model_mb", double(report->memoryBytes()) / kBytesPerMb, 1);
        printValue("correlation_mb", double(correlationIndex(*report).memoryBytes()) / kBytesPerMb, 1);
        printValue("drawing_summaries_mb", double(ReportSummaries::of(*report).memoryBytes()) / kBytesPerMb, 1);
    }
    return kExitOk;
}

}  // namespace lanescope::bench
