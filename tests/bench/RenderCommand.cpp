#include <QApplication>
#include <QImage>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "analysis/NvtxProjection.h"
#include "tests/bench/Args.h"
#include "tests/bench/BenchInput.h"
#include "tests/bench/Commands.h"
#include "tests/bench/Measure.h"
#include "timeline/ReportSummaries.h"
#include "timeline/TimelineView.h"

namespace lanescope::bench {
namespace {

// Resident set size now (not the peak), from /proc/self/status, in MB.
double currentRssMb() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
    return 0;
}

// CPU time of the calling thread, in ms: what a frame costs whatever else the machine runs.
double threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1000.0 + double(t.tv_nsec) / 1e6;
}

double percentile(std::vector<double> values, double p) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    return values[std::min(values.size() - 1, static_cast<size_t>(p * double(values.size() - 1) + 0.5))];
}

// The figures of one report.
struct RenderFigures {
    uint64_t events = 0;
    double p50 = 0, p95 = 0, max = 0, worst_level_median = 0, cpu_p95 = 0;
};

// A frame = geometry build for the new viewport + painting the whole widget into an image,
// as the viewer does on every pan or zoom step. Zoom levels sweep geometrically from the
// whole trace down to a 1 us window around its middle; each level is panned K times.
RenderFigures measureRender(const std::shared_ptr<const Report>& report, int width, int height, int frames) {
    // The drawing summaries, as the viewer builds them after import (off the GUI thread).
    const Stopwatch lodWatch;
    const ReportSummaries& summaries = ReportSummaries::of(*report);
    summaries.buildAll(std::max(1u, std::thread::hardware_concurrency()));
    const double lodMs = lodWatch.seconds() * 1000.0;

    TimelineView view;
    view.resize(width, height);
    view.setReports({report});
    QImage image(view.size(), QImage::Format_RGB32);  // what an X11 backing store uses

    const int64_t whole = report->meta.end_ns - report->meta.begin_ns;
    const int64_t centre = report->meta.begin_ns + whole / 2;
    constexpr int kLevels = 12;
    auto spanAt = [&](int level) {
        return static_cast<int64_t>(double(whole) * std::pow(1000.0 / double(whole), level / double(kLevels - 1)));
    };
    std::vector<double> cpu;  // of each measured frame
    auto frame = [&](int level, int step) {
        const int64_t span = std::max<int64_t>(spanAt(level), 1000);
        const int64_t begin = centre - span / 2 + (step - frames / 2) * (span / 23);
        view.zoomTo(begin, begin + span, false);
        const Stopwatch watch;
        const double cpuBefore = threadCpuMs();
        // The timeline paints every pixel itself (opaque), as on screen: no background fill
        // first. Its scrollbars are separate widgets, repainted only when their slider moves.
        view.render(&image, QPoint(), QRegion(), QWidget::RenderFlags());
        cpu.push_back(threadCpuMs() - cpuBefore);
        return watch.seconds() * 1000.0;
    };
    for (int level = 0; level < kLevels; ++level) frame(level, 0);  // warm caches and fonts

    cpu.clear();
    std::vector<double> all, levelMedian, levelCpuMedian;
    const size_t buildsBefore = view.geometryBuilds();
    for (int level = 0; level < kLevels; ++level) {
        std::vector<double> times;
        for (int step = 0; step < frames; ++step) times.push_back(frame(level, step));
        levelMedian.push_back(median(times));
        levelCpuMedian.push_back(median(std::vector<double>(cpu.end() - frames, cpu.end())));
        all.insert(all.end(), times.begin(), times.end());
    }
    const size_t builds = view.geometryBuilds() - buildsBefore;
    const std::vector<double> frameCpu = cpu;
    // Panning back and forth over every level must not grow memory.
    const double rssBefore = currentRssMb();
    for (int round = 0; round < 20; ++round)
        for (int level = 0; level < kLevels; ++level) frame(level, round % 2 ? 0 : frames - 1);
    const double rssAfter = currentRssMb();

    RenderFigures f;
    f.events = report->counts().slices;
    f.p50 = percentile(all, 0.5);
    f.p95 = percentile(all, 0.95);
    f.max = percentile(all, 1.0);
    f.worst_level_median = *std::max_element(levelMedian.begin(), levelMedian.end());
    f.cpu_p95 = percentile(frameCpu, 0.95);
    printValue("events", f.events);
    std::printf("size=%dx%d\n", width, height);
    printValue("zoom_levels", uint64_t(kLevels));
    printValue("frames", uint64_t(all.size()));
    printValue("geometry_builds", uint64_t(builds));  // the other frames panned within the built window
    printValue("frame_p50_ms", f.p50, 2);
    printValue("frame_p95_ms", f.p95, 2);
    printValue("frame_max_ms", f.max, 2);
    printValue("worst_level_median_ms", f.worst_level_median, 2);
    // The GUI thread's CPU time per frame: the same frames without the waits of a loaded machine.
    printValue("frame_cpu_p50_ms", percentile(frameCpu, 0.5), 2);
    printValue("frame_cpu_p95_ms", f.cpu_p95, 2);
    std::printf("level_median_ms=");  // from the whole trace down to 1 us
    for (size_t i = 0; i < levelMedian.size(); ++i) std::printf("%s%.2f", i ? "," : "", levelMedian[i]);
    std::printf("\nlevel_cpu_median_ms=");
    for (size_t i = 0; i < levelCpuMedian.size(); ++i) std::printf("%s%.2f", i ? "," : "", levelCpuMedian[i]);
    std::printf("\n");
    printValue("pan_rss_growth_mb", rssAfter - rssBefore, 1);
    printValue("lod_build_ms", lodMs, 1);
    printValue("lod_bytes", uint64_t(summaries.memoryBytes()));
    printValue("model_bytes", uint64_t(report->memoryBytes()));
    printValue("lod_share_of_model", double(summaries.memoryBytes()) / double(report->memoryBytes()), 4);
    std::fflush(stdout);
    return f;
}

}  // namespace

// lanescope-bench render [--events N[,N...] | FILE] [--size WxH] [--frames K]
// With several counts, one synthetic report after the other in this process (each freed
// before the next is made), then the p95 of the last over the p95 of the first.
int renderCommand(int argc, char** argv) {
    const Args args = parseArgs(argc, argv, 2, {"events", "size", "frames"});
    if (!args.error.empty()) return usageError(args.error);
    int width = 1920, height = 1080;
    if (args.options.count("size") && std::sscanf(args.options.at("size").c_str(), "%dx%d", &width, &height) != 2)
        return usageError("--size wants WIDTHxHEIGHT");
    const auto frames = args.options.count("frames") ? parseCount(args.options.at("frames")) : 8;
    if (!frames || width < 400 || height < 200) return usageError("--frames needs a count, --size at least 400x200");
    std::vector<std::string> counts = {""};  // one input as given
    if (args.options.count("events")) {
        counts.clear();
        std::stringstream list(args.options.at("events"));
        for (std::string count; std::getline(list, count, ',');) counts.push_back(count);
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    int qtArgc = 1;
    char* qtArgv[] = {argv[0], nullptr};
    QApplication app(qtArgc, qtArgv);
    ImportOptions options;
    options.add_view_lanes = [](Report& r) { addNvtxProjectionLanes(r); };  // the rows the viewer shows
    std::vector<RenderFigures> figures;
    for (const std::string& count : counts) {
        Args one = args;
        if (!count.empty()) one.options["events"] = count;
        const Stopwatch loadWatch;
        BenchInput input = loadBenchInput(one, options);
        if (!input.report) return input.exit_code;
        if (!count.empty()) printValue("generate_and_import_s", loadWatch.seconds(), 1);
        figures.push_back(measureRender(std::move(input.report), width, height, int(*frames)));
    }
    if (figures.size() > 1) {
        std::printf("p95_by_events=");
        for (size_t i = 0; i < figures.size(); ++i)
            std::printf("%s%llu:%.2f", i ? "," : "", static_cast<unsigned long long>(figures[i].events),
                        figures[i].p95);
        std::printf("\n");
        printValue("p95_last_over_first", figures.back().p95 / figures.front().p95, 2);
        printValue("cpu_p95_last_over_first", figures.back().cpu_p95 / figures.front().cpu_p95, 2);
    }
    return kExitOk;
}

}  // namespace lanescope::bench
