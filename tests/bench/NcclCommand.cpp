// lanescope-bench nccl: the communication analysis of many ranks (docs/analyses.md,
// "Communication"; the budget: 64 ranks x 10,000 collectives in under 1 s).
#include <QApplication>
#include <QEventLoop>
#include <QTimer>
#include <memory>
#include <string>
#include <vector>

#include "analysis/communication/CollectiveInstances.h"
#include "app/gui/ViewSession.h"
#include "app/gui/panels/communication/CommunicationPanel.h"
#include "tests/bench/Args.h"
#include "tests/bench/Commands.h"
#include "tests/bench/Measure.h"
#include "tests/support/NcclJob.h"

namespace lanescope::bench {
namespace {

// Milliseconds from handing the reports to the viewer's Communication panel until it shows
// their analysis (computed off the GUI thread, then its tables, scatter and collectives' model
// filled); -1 when it did not within a minute. Offscreen.
double communicationPanelMs(const std::vector<std::shared_ptr<const Report>>& reports) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    qInstallMessageHandler([](QtMsgType, const QMessageLogContext&, const QString&) {});
    int argc = 1;
    char name[] = "lanescope-bench";
    char* argv[] = {name, nullptr};
    QApplication app(argc, argv);
    ViewSession session;  // no timeline: the panel alone
    CommunicationPanel panel(&session);
    panel.resize(1400, 500);
    panel.show();
    const Stopwatch watch;
    session.setReports(reports);
    QEventLoop loop;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if ((!panel.busy() && panel.currentAnalysis()) || watch.seconds() > 60) loop.quit();
    });
    poll.start(1);
    loop.exec();
    return panel.currentAnalysis() ? watch.seconds() * 1e3 : -1;
}

}  // namespace

// lanescope-bench nccl [--ranks K] [--collectives N] [--runs R]
int ncclCommand(int argc, char** argv) {
    const Args args = parseArgs(argc, argv, 2, {"ranks", "collectives", "runs"});
    if (!args.error.empty()) return usageError(args.error);
    auto count = [&](const char* key, uint64_t fallback) {
        return args.options.count(key) ? parseCount(args.options.at(key)) : std::optional<uint64_t>(fallback);
    };
    const auto ranks = count("ranks", 64), collectives = count("collectives", 10'000), runs = count("runs", 3);
    if (!ranks || !collectives || !runs) return usageError("--ranks, --collectives and --runs need positive counts");
    std::vector<std::unique_ptr<test::TinyReport>> owned;
    std::vector<const Report*> reports;
    for (uint64_t r = 0; r < *ranks; ++r) {
        owned.push_back(test::ncclRankReport(r, *ranks, *collectives));
        reports.push_back(&owned.back()->r);
    }
    std::vector<double> analysisMs, summaryMs;
    size_t rows = 0, instances = 0;
    for (uint64_t run = 0; run < *runs; ++run) {
        const Stopwatch watch;
        const CommunicationAnalysis a = analyzeCommunication(reports);
        analysisMs.push_back(watch.seconds() * 1000.0);
        const Stopwatch summaryWatch;
        summarizeCollectives(a.rows);
        summaryMs.push_back(summaryWatch.seconds() * 1000.0);
        rows = a.rows.size();
        instances = a.instances.size();
    }
    printValue("ranks", *ranks);
    printValue("collectives", uint64_t(rows));
    printValue("instances", uint64_t(instances));
    printValue("nccl_analysis_ms", median(analysisMs), 1);
    printValue("nccl_summary_ms", median(summaryMs), 1);
    std::vector<std::shared_ptr<const Report>> shared;
    for (const auto& t : owned)
        shared.emplace_back(std::shared_ptr<const test::TinyReport>(t.get(), [](auto*) {}), &t->r);
    printValue("communication_panel_ms", communicationPanelMs(shared), 1);
    return kExitOk;
}

}  // namespace lanescope::bench
