#include "tests/bench/HeatMapPaint.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <limits>

#include "analysis/ranks/StepGrid.h"
#include "app/gui/panels/ranks/RankHeatMap.h"
#include "tests/bench/Commands.h"
#include "tests/bench/Measure.h"

namespace lanescope::bench {
namespace {

constexpr int kRanks = 1024, kSteps = 100, kPaints = 60;

// 1,024 ranks of 100 steps of about 100 ms; every 97th rank is slow in every 7th step; one
// AllReduce per step in which the slowest rank arrives last and the others wait for it.
RankComparison syntheticComparison() {
    RankComparison c;
    c.ranks.resize(kRanks);
    uint64_t state = 12345;
    const auto jitter = [&state](int64_t range) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return int64_t((state >> 33) % uint64_t(range));
    };
    std::vector<std::vector<int64_t>> ends(kRanks);
    for (int r = 0; r < kRanks; ++r) {
        RankMetrics& m = c.ranks[size_t(r)];
        m.label = "rank " + std::to_string(r);
        m.rank = r;
        int64_t t = 0;
        for (int s = 0; s < kSteps; ++s) {
            int64_t d = 100'000'000 + jitter(2'000'000);
            if (r % 97 == 5 && s % 7 == 3) d += 15'000'000;
            m.steps.push_back({s, t, t + d, {0, uint32_t(s)}});
            ends[size_t(r)].push_back(t + d - 1'000'000);
            t += d + 50'000;
        }
    }
    constexpr int64_t kMissing = std::numeric_limits<int64_t>::min();
    for (int s = 0; s < kSteps; ++s) {
        MatchedCollective mc;
        mc.kind = "AllReduce";
        mc.ordinal = uint32_t(s);
        mc.present = kRanks;
        mc.arrival_ns.assign(kRanks, kMissing);
        mc.wait_ns.assign(kRanks, 0);
        int64_t last = 0;
        for (int r = 0; r < kRanks; ++r) last = std::max(last, ends[size_t(r)][size_t(s)]);
        for (int r = 0; r < kRanks; ++r) {
            mc.arrival_ns[size_t(r)] = ends[size_t(r)][size_t(s)];
            mc.wait_ns[size_t(r)] = last - ends[size_t(r)][size_t(s)];
        }
        c.collectives.push_back(std::move(mc));
    }
    return c;
}

// CPU time of the calling thread, ms: what a paint costs whatever else the machine runs.
double threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

std::string measurePaints() {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qInstallMessageHandler([](QtMsgType, const QMessageLogContext&, const QString&) {});
    int argc = 1;
    char name[] = "lanescope-bench";
    char* argv[] = {name, nullptr};
    QApplication app(argc, argv);
    RankHeatMap map;
    StepGrid grid = stepGrid(syntheticComparison());
    std::vector<QString> labels;
    for (int r = 0; r < kRanks; ++r) labels.push_back(QString("rank %1").arg(r));
    map.setGrid(std::move(grid), std::move(labels));
    map.resize(1400, kRanks * RankHeatMap::kMinRowPx + 120);  // every rank in sight
    QImage target(map.size(), QImage::Format_ARGB32_Premultiplied);
    std::vector<double> ms, cpuMs;
    for (int i = 0; i < kPaints; ++i) {
        map.setMeasure(i % 2 ? RankHeatMap::Measure::Wait : RankHeatMap::Measure::StepTime);
        const double cpuBefore = threadCpuMs();
        const Stopwatch watch;
        map.render(&target);
        ms.push_back(watch.seconds() * 1e3);
        cpuMs.push_back(threadCpuMs() - cpuBefore);
    }
    std::sort(ms.begin(), ms.end());
    char line[120];
    std::snprintf(line, sizeof line, "ok %.4f %.4f %.4f", median(ms), ms[size_t(double(ms.size() - 1) * 0.95)],
                  median(cpuMs));
    return line;
}

}  // namespace

bool printHeatMapPaint() {
    const ChildRun child = runInChild(measurePaints);
    double medianMs = 0, p95Ms = 0, cpuMs = 0;
    if (!child.ok || std::sscanf(child.output.c_str(), "ok %lf %lf %lf", &medianMs, &p95Ms, &cpuMs) != 3) {
        std::fprintf(stderr, "lanescope-bench: the heat map paint run failed\n");
        return false;
    }
    printValue("heatmap_cells", uint64_t{kRanks} * kSteps);
    printValue("heatmap_paint_ms", medianMs, 2);
    printValue("heatmap_paint_ms_p95", p95Ms, 2);
    printValue("heatmap_paint_cpu_ms", cpuMs, 2);
    return true;
}

}  // namespace lanescope::bench
