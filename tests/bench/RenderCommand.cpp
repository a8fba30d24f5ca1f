#include <QApplication>
#include <QImage>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "analysis/NvtxProjection.h"
#include "tests/bench/Args.h"
#include "tests/bench/BenchInput.h"
#include "tests/bench/Commands.h"
#include "tests/bench/Measure.h"
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

double percentile(std::vector<double> values, double p) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    return values[std::min(values.size() - 1, static_cast<size_t>(p * double(values.size() - 1) + 0.5))];
}

}  // namespace

// lanescope-bench render [--events N | FILE] [--size WxH] [--frames K]
// A frame = geometry build for the new viewport + painting the whole widget into an image,
// as the viewer does on every pan or zoom step. Zoom levels sweep geometrically from the
// whole trace down to a 1 µs window around its middle; each level is panned K times.
int renderCommand(int argc, char** argv) {
    const Args args = parseArgs(argc, argv, 2, {"events", "size", "frames"});
    if (!args.error.empty()) return usageError(args.error);
    int width = 1920, height = 1080;
    if (args.options.count("size") && std::sscanf(args.options.at("size").c_str(), "%dx%d", &width, &height) != 2)
        return usageError("--size wants WIDTHxHEIGHT");
    const auto frames = args.options.count("frames") ? parseCount(args.options.at("frames")) : 8;
    if (!frames || width < 400 || height < 200) return usageError("--frames needs a count, --size at least 400x200");
    ImportOptions options;
    options.add_view_lanes = addNvtxProjectionLanes;  // the rows the viewer shows
    BenchInput input = loadBenchInput(args, options);
    if (!input.report) return input.exit_code;
    const std::shared_ptr<const Report> report = std::move(input.report);

    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    int qtArgc = 1;
    char* qtArgv[] = {argv[0], nullptr};
    QApplication app(qtArgc, qtArgv);
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
    auto frame = [&](int level, int step) {
        const int64_t span = std::max<int64_t>(spanAt(level), 1000);
        const int64_t begin = centre - span / 2 + (step - int(*frames) / 2) * (span / 23);
        view.zoomTo(begin, begin + span, false);
        const Stopwatch watch;
        // The timeline paints every pixel itself (opaque), as on screen: no background fill
        // first. Its scrollbars are separate widgets, repainted only when their slider moves.
        view.render(&image, QPoint(), QRegion(), QWidget::RenderFlags());
        return watch.seconds() * 1000.0;
    };
    for (int level = 0; level < kLevels; ++level) frame(level, 0);  // warm caches and fonts

    std::vector<double> all, worstLevel;
    for (int level = 0; level < kLevels; ++level) {
        std::vector<double> times;
        for (uint64_t step = 0; step < *frames; ++step) times.push_back(frame(level, int(step)));
        worstLevel.push_back(median(times));
        all.insert(all.end(), times.begin(), times.end());
    }
    // Panning back and forth over every level must not grow memory.
    const double rssBefore = currentRssMb();
    for (int round = 0; round < 20; ++round)
        for (int level = 0; level < kLevels; ++level) frame(level, round % 2 ? 0 : int(*frames) - 1);
    const double rssAfter = currentRssMb();

    printValue("events", report->counts().slices);
    std::printf("size=%dx%d\n", width, height);
    printValue("zoom_levels", uint64_t(kLevels));
    printValue("frames", uint64_t(all.size()));
    printValue("frame_p50_ms", percentile(all, 0.5), 2);
    printValue("frame_p95_ms", percentile(all, 0.95), 2);
    printValue("frame_max_ms", percentile(all, 1.0), 2);
    printValue("worst_level_median_ms", *std::max_element(worstLevel.begin(), worstLevel.end()), 2);
    std::printf("level_median_ms=");  // from the whole trace down to 1 us
    for (size_t i = 0; i < worstLevel.size(); ++i) std::printf("%s%.2f", i ? "," : "", worstLevel[i]);
    std::printf("\n");
    printValue("pan_rss_growth_mb", rssAfter - rssBefore, 1);
    return kExitOk;
}

}  // namespace lanescope::bench
