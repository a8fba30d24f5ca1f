#include <QApplication>
#include <QEventLoop>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <optional>
#include <thread>

#include "analysis/ranks/RankCompare.h"
#include "app/gui/ViewSession.h"
#include "app/gui/panels/ranks/ComparePanel.h"
#include "importers/ImportFiles.h"
#include "tests/bench/Args.h"
#include "tests/bench/Commands.h"
#include "tests/bench/HeatMapPaint.h"
#include "tests/bench/Measure.h"
#include "tests/support/SyntheticReport.h"

namespace lanescope::bench {
namespace {

// Milliseconds from handing the reports to the viewer's Ranks panel until it has filled in
// (alignment and comparison off the GUI thread, then its tables and Qt charts); -1 when it
// did not within a minute. Offscreen, in this (child) process.
double panelFillMs(const std::vector<std::shared_ptr<const Report>>& reports) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    // The offscreen platform's notices would land between the figures.
    qInstallMessageHandler([](QtMsgType, const QMessageLogContext&, const QString&) {});
    int argc = 1;
    char name[] = "lanescope-bench";
    char* argv[] = {name, nullptr};
    QApplication app(argc, argv);
    ViewSession session;  // no timeline: the panel alone
    ComparePanel panel(&session);
    panel.resize(1400, 500);
    panel.show();
    QEventLoop loop;
    bool filled = false;
    QObject::connect(&panel, &ComparePanel::updated, &loop, [&] {
        filled = true;
        loop.quit();
    });
    QTimer::singleShot(60'000, &loop, &QEventLoop::quit);
    const Stopwatch watch;
    session.setReports(reports);
    if (!filled) loop.exec();
    return filled ? watch.seconds() * 1e3 : -1;
}

// One child run: imports `paths` together (importFiles: one import per core), then compares
// them `compares` times, or with `panel` fills the Ranks panel once instead (a run of its own,
// so that Qt's memory is not counted in the others). Prints "ok IMPORT_S COMPARE_MS SLICES
// MODEL_BYTES PANEL_MS" or "error MESSAGE".
std::string importAndCompare(const std::vector<std::filesystem::path>& paths, int compares, bool panel) {
    NullProgress progress;
    const Stopwatch watch;
    std::vector<ImportResult> results = importFiles(paths, ImportOptions{}, progress);
    const double importS = watch.seconds();
    std::vector<std::shared_ptr<const Report>> owned;
    std::vector<const Report*> reports;
    uint64_t slices = 0;
    size_t bytes = 0;
    for (ImportResult& r : results) {
        if (!r.ok()) return "error " + r.error().message;
        reports.push_back(r.report().get());
        slices += r.report()->counts().slices;
        bytes += r.report()->memoryBytes();
        owned.push_back(std::move(r.report()));
    }
    std::vector<double> ms;
    for (int i = 0; i < compares; ++i) {
        const Stopwatch c;
        const RankComparison comparison = compareRanks(reports, AlignMode::Nccl);
        ms.push_back(c.seconds() * 1e3);
        if (comparison.ranks.size() != reports.size()) return "error compare lost a rank";
    }
    const double panelMs = panel ? panelFillMs(owned) : 0.0;
    char line[200];
    std::snprintf(line, sizeof line, "ok %.9f %.6f %" PRIu64 " %zu %.6f", importS, compares ? median(ms) : 0.0, slices,
                  bytes, panelMs);
    return line;
}

struct Figures {
    double import_s = 0, compare_ms = 0, panel_ms = 0, peak_rss_mb = 0, cpu_s = 0;
    uint64_t slices = 0, bytes = 0;
};

std::optional<Figures> measure(const std::vector<std::filesystem::path>& paths, int compares, bool panel = false) {
    const ChildRun child = runInChild([&] { return importAndCompare(paths, compares, panel); });
    Figures f;
    if (child.output.starts_with("error ")) {
        std::fprintf(stderr, "%s\n", child.output.substr(6).c_str());
        return std::nullopt;
    }
    if (!child.ok ||
        std::sscanf(child.output.c_str(), "ok %lf %lf %" SCNu64 " %" SCNu64 " %lf", &f.import_s, &f.compare_ms,
                    &f.slices, &f.bytes, &f.panel_ms) != 5 ||
        f.panel_ms < 0) {
        std::fprintf(stderr, "lanescope-bench: the compare run crashed\n");
        return std::nullopt;
    }
    f.peak_rss_mb = child.peak_rss_mb;
    f.cpu_s = child.cpu_s;
    return f;
}

}  // namespace

// lanescope-bench compare [--ranks K --events N | FILE...] [--runs R]: opens K rank reports
// together as the viewer does and compares them (alignment by NCCL, per-rank metrics, waits,
// straggler). With --events, one synthetic report of N events is written and opened K times.
// Then the Ranks panel's heat map of 1,024 ranks x 100 steps is painted (HeatMapPaint.h).
// Each run is a fresh child process; a single report is opened alone first, for its memory,
// and an empty run gives the process's own baseline.
int compareCommand(int argc, char** argv) {
    const Args args = parseArgs(argc, argv, 2, {"ranks", "events", "runs"});
    if (!args.error.empty()) return usageError(args.error);
    const auto runs = args.options.count("runs") ? parseCount(args.options.at("runs")) : 3;
    if (!runs) return usageError("--runs needs a positive count");
    std::vector<std::filesystem::path> paths(args.positional.begin(), args.positional.end());
    std::optional<std::filesystem::path> temp;
    if (args.options.count("events")) {
        const auto events = parseCount(args.options.at("events"));
        const auto ranks = args.options.count("ranks") ? parseCount(args.options.at("ranks")) : 8;
        if (!events || !ranks || !paths.empty()) return usageError("compare takes --ranks K --events N, or FILEs");
        temp = std::filesystem::temp_directory_path() /
               ("lanescope-bench-compare-" + std::to_string(::getpid()) + ".sqlite");
        std::filesystem::remove(*temp);
        try {
            writeSyntheticReport(*temp, *events);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "lanescope-bench: %s\n", e.what());
            return kExitBadInput;
        }
        paths.assign(*ranks, *temp);
    }
    if (paths.size() < 2) return usageError("compare needs two reports or more");

    int exitCode = kExitOk;
    const auto baseline = measure({}, 0);  // the process before any report
    const auto single = baseline ? measure({paths.front()}, 0) : std::nullopt;
    std::vector<double> importS, compareMs, panelMs, peakMb, busyCores;
    Figures all;
    for (uint64_t run = 0; single && run < *runs; ++run) {
        const auto f = measure(paths, 5);
        const auto panel = f ? measure(paths, 0, true) : std::nullopt;
        if (!panel) break;
        all = *f;
        importS.push_back(f->import_s);
        compareMs.push_back(f->compare_ms);
        panelMs.push_back(panel->panel_ms);
        peakMb.push_back(f->peak_rss_mb);
        // CPU time per wall second of the import (the compares' share taken out): ~2 = both cores
        const double compareS = f->compare_ms * 5 / 1e3;
        busyCores.push_back(f->import_s > 0 ? std::max(0.0, f->cpu_s - compareS) / f->import_s : 0.0);
    }
    if (!single || importS.size() != *runs) {
        exitCode = kExitBadInput;
    } else {
        printValue("ranks", uint64_t{paths.size()});
        printValue("events", all.slices);
        printValue("single_import_s", single->import_s, 3);
        printValue("single_peak_rss_mb", single->peak_rss_mb, 1);
        printValue("import_s", median(importS), 3);
        printValue("import_s_min", minimum(importS), 3);
        printValue("import_cores_busy", median(busyCores), 2);
        printValue("peak_rss_mb", median(peakMb), 1);
        // What K separate single-report peaks would add up to, the process itself counted once.
        printValue("sum_of_single_peak_rss_mb",
                   baseline->peak_rss_mb + (single->peak_rss_mb - baseline->peak_rss_mb) * double(paths.size()), 1);
        printValue("model_mb", double(all.bytes) / kBytesPerMb, 1);
        printValue("compare_ms", median(compareMs), 1);
        printValue("panel_fill_ms", median(panelMs), 1);
        printValue("threads", uint64_t{std::max(1u, std::thread::hardware_concurrency())});
        if (!printHeatMapPaint()) exitCode = kExitBadInput;
    }
    if (temp) std::filesystem::remove(*temp);
    return exitCode;
}

}  // namespace lanescope::bench
