#include <QApplication>
#include <QImage>
#include <cstdio>

#include "analysis/NvtxProjection.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "timeline/TimelineView.h"

namespace lanescope::cli {
namespace {

constexpr const char* kUsage =
    "usage: lanescope-cli render FILE --out OUT.png [--size WxH] [--range START_NS:END_NS]\n";

int usage(const std::string& why) {
    std::fprintf(stderr, "lanescope-cli render: %s\n%s", why.c_str(), kUsage);
    return kExitUsage;
}

}  // namespace

// Draws the timeline exactly as the viewer does, into a PNG, with no display: Qt's
// offscreen platform unless QT_QPA_PLATFORM says otherwise.
int runRender(int argc, char** argv, int first) {
    const ParsedArgs args = parseArgs(argc, argv, first, {"out", "size", "range"});
    if (!args.error.empty()) return usage(args.error);
    if (args.positional.size() != 1) return usage("expected one FILE");
    if (!args.options.count("out")) return usage("--out is required");
    int width = 1600, height = 900;
    if (args.options.count("size") && (std::sscanf(args.options.at("size").c_str(), "%dx%d", &width, &height) != 2 ||
                                       width < 400 || height < 200 || width > 16384 || height > 16384))
        return usage("--size wants WIDTHxHEIGHT, at least 400x200");
    std::optional<TimeRange> range;
    if (args.options.count("range")) {
        range = parseRange(args.options.at("range"));
        if (!range || range->end_ns <= range->begin_ns) return usage("--range wants START_NS:END_NS with START < END");
    }
    ImportOptions options = defaultImportOptions();
    options.add_view_lanes = [](Report& r) { addNvtxProjectionLanes(r); };  // the rows the viewer shows
    std::unique_ptr<Report> loaded = loadReport(args.positional[0], options);
    if (!loaded) return kExitBadInput;
    const std::shared_ptr<const Report> report = std::move(loaded);

    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    int qtArgc = 1;
    char* qtArgv[] = {argv[0], nullptr};
    QApplication app(qtArgc, qtArgv);
    TimelineView view;
    view.resize(width, height);
    view.setReports({report});
    if (range) view.zoomTo(range->begin_ns, range->end_ns, false);
    QImage image(view.size(), QImage::Format_RGB32);
    view.render(&image);
    if (!image.save(QString::fromStdString(args.options.at("out")), "PNG")) {
        std::fprintf(stderr, "lanescope-cli: cannot write %s\n", args.options.at("out").c_str());
        return kExitBadInput;
    }
    return kExitOk;
}

}  // namespace lanescope::cli
