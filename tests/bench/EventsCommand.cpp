#include <QApplication>
#include <QHeaderView>
#include <QImage>
#include <QTableView>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <string>

#include "app/gui/panels/events/EventTableModel.h"
#include "model/EventOrder.h"
#include "model/EventRows.h"
#include "model/LaneFreezer.h"
#include "tests/bench/Args.h"
#include "tests/bench/BenchInput.h"
#include "tests/bench/Commands.h"
#include "tests/bench/Measure.h"

namespace lanescope::bench {
namespace {

// A report of one GPU with `lanes` streams of `perLane` kernels each, back to back with small
// gaps, durations 0.2 to 20 µs, 64 kernel names and 16 launch configurations, frozen: what
// the Events table lists, built in memory (writing and importing ten million events through
// SQLite would measure the importer, not the table).
std::shared_ptr<const Report> syntheticGpuReport(size_t lanes, size_t perLane) {
    auto report = std::make_shared<Report>();
    report->strings.intern("");
    report->gpus.push_back({0, report->strings.intern("Synthetic GPU")});
    // An H200's limits, so that the kernels have a theoretical occupancy to sort by.
    MachineGpu gpu;
    gpu[GpuProperty::Id] = gpu[GpuProperty::CuDevice] = 0;
    gpu[GpuProperty::ThreadsPerWarp] = 32, gpu[GpuProperty::MaxWarpsPerSm] = 64, gpu[GpuProperty::MaxBlocksPerSm] = 32;
    gpu[GpuProperty::MaxRegistersPerSm] = gpu[GpuProperty::MaxRegistersPerBlock] = 65536;
    gpu[GpuProperty::MaxShmemPerSm] = 233472, gpu[GpuProperty::ComputeMajor] = 9, gpu[GpuProperty::ComputeMinor] = 0;
    report->machine_gpus.push_back(gpu);
    std::vector<uint32_t> names;
    for (int n = 0; n < 64; ++n)
        names.push_back(report->strings.intern("void synthetic_kernel_" + std::to_string(n * 7919 % 1000) + "<float, " +
                                               std::to_string(n % 8) + ">(float const*, float*, int)"));
    for (uint32_t c = 0; c < 16; ++c) {
        KernelConfig config;
        config.grid[0] = 1 + c * 37;
        config.grid[1] = config.grid[2] = 1;
        config.block[0] = uint16_t(64 << (c % 5));
        config.block[1] = config.block[2] = 1;
        config.registers_per_thread = uint16_t(16 + c * 4);
        config.launch_type = 1;
        report->kernel_configs.push_back(config);
    }
    std::mt19937_64 rng(42);
    for (size_t l = 0; l < lanes; ++l) {
        Lane lane;
        lane.kind = LaneKind::GpuStream;
        lane.name_id = report->strings.intern("Stream " + std::to_string(7 + l));
        lane.gpu = 0;
        lane.stream_id = int64_t(7 + l);
        int64_t t = int64_t(l) * 333;
        for (size_t i = 0; i < perLane; ++i) {
            const int64_t duration = 200 + int64_t(rng() % 19800);
            IntervalColumns& ev = lane.events;
            ev.append(t, t + duration, names[rng() % names.size()], uint32_t(report->kernels.size()),
                      EventKind::Kernel);
            ev.depth.push_back(0);
            report->kernels.push_back({uint32_t(rng() % 16), uint32_t(report->kernels.size() + 1)});
            t += duration + 50 + int64_t(rng() % 500);
        }
        freezeLane(lane, report->diagnostics);
        report->lanes.push_back(std::move(lane));
    }
    setTimeSpan(*report);
    return report;
}

double msSince(const Stopwatch& watch) { return watch.seconds() * 1000.0; }

}  // namespace

// lanescope-bench events [--events N | FILE] [--runs K]
// The Events table over N events: opening it (its row index, the model reset and the first
// frame of a 1600x400 table), sorting by duration, by name and by theoretical occupancy,
// filtering by name, and frames
// after jumps to random places. With --events N (default 10,000,000) a synthetic report is
// built in memory: N kernels in one stream, then N kernels in four streams for the merge of
// several rows. With FILE: its largest lane, then its GPU stream lanes together.
int eventsCommand(int argc, char** argv) {
    const Args args = parseArgs(argc, argv, 2, {"events", "runs"});
    if (!args.error.empty()) return usageError(args.error);
    const auto runs = args.options.count("runs") ? parseCount(args.options.at("runs")) : 3;
    if (!runs) return usageError("--runs needs a positive count");
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    int qtArgc = 1;
    char* qtArgv[] = {argv[0], nullptr};
    QApplication app(qtArgc, qtArgv);

    std::shared_ptr<const Report> single, several;
    std::vector<uint32_t> severalLanes;
    if (args.positional.empty()) {
        const auto events = args.options.count("events") ? parseCount(args.options.at("events")) : 10000000;
        if (!events) return usageError("--events needs a positive count");
        single = syntheticGpuReport(1, *events);
        severalLanes = {0, 1, 2, 3};
    } else {
        BenchInput input = loadBenchInput(args);
        if (!input.report) return input.exit_code;
        single = std::move(input.report);
        several = single;
        for (uint32_t l = 0; l < single->lanes.size(); ++l)
            if (single->lanes[l].kind == LaneKind::GpuStream) severalLanes.push_back(l);
    }
    uint32_t biggest = 0;
    for (uint32_t l = 0; l < single->lanes.size(); ++l)
        if (single->lanes[l].events.size() > single->lanes[biggest].events.size()) biggest = l;
    const int64_t begin = single->meta.begin_ns, end = single->meta.end_ns + 1;

    QTableView view;
    EventTableModel model;
    view.setModel(&model);
    view.verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view.verticalHeader()->setDefaultSectionSize(view.fontMetrics().height() + 6);
    view.resize(1600, 400);
    view.show();  // offscreen: laid out and painted as on screen
    QApplication::processEvents();
    QImage frame(view.size(), QImage::Format_RGB32);
    // The table and its children (the viewport with the cells, the headers), as on screen.
    auto paint = [&] { view.render(&frame, QPoint(), QRegion(), QWidget::DrawChildren); };
    paint();

    std::vector<double> openMs, indexMs, sortDurationMs, sortNameMs, sortOccupancyMs, filterMs, scrollMs;
    EventTableContents contents;
    for (uint64_t run = 0; run < *runs; ++run) {
        model.setContents({});
        const Stopwatch open;
        contents = {{single},
                    std::make_shared<const EventRows>(EventRows::collect({{single.get(), biggest, 0}}, begin, end)),
                    nullptr};
        indexMs.push_back(msSince(open));
        model.setContents(contents);
        paint();
        openMs.push_back(msSince(open));

        const Stopwatch byDuration;
        sortEventRows(*contents.rows, nullptr, EventField::Duration, true);
        sortDurationMs.push_back(msSince(byDuration));
        const Stopwatch byName;
        sortEventRows(*contents.rows, nullptr, EventField::Name, false);
        sortNameMs.push_back(msSince(byName));
        const Stopwatch byOccupancy;
        sortEventRows(*contents.rows, nullptr, EventField::Occupancy, true);
        sortOccupancyMs.push_back(msSince(byOccupancy));
        const Stopwatch filter;
        filterEventRows(*contents.rows, FindQuery{"kernel_1", false, false});
        filterMs.push_back(msSince(filter));
    }
    std::mt19937 rng(7);
    int landed = 0;  // jumps after which the view's top row is the one jumped to
    for (int jump = 0; jump < 40; ++jump) {
        const int row = int(rng() % std::max<size_t>(1, contents.size() - 100));
        const Stopwatch watch;
        view.scrollTo(model.index(row, 0), QAbstractItemView::PositionAtTop);
        paint();
        scrollMs.push_back(msSince(watch));
        landed += view.rowAt(0) == row;
    }
    const size_t rows = contents.size();
    model.setContents({});
    contents = {};

    // Several rows at once: a merge by start time.
    if (!several) {
        single.reset();
        several = syntheticGpuReport(4, rows / 4);
    }
    std::vector<EventSource> sources;
    for (uint32_t l : severalLanes) sources.push_back({several.get(), l, 0});
    std::vector<double> mergedMs, mergedSortMs;
    size_t mergedRows = 0;
    for (uint64_t run = 0; run < *runs; ++run) {
        const Stopwatch merge;
        const EventRows merged = EventRows::collect(sources, several->meta.begin_ns, several->meta.end_ns + 1);
        mergedMs.push_back(msSince(merge));
        mergedRows = merged.size();
        const Stopwatch sort;
        sortEventRows(merged, nullptr, EventField::Duration, true);
        mergedSortMs.push_back(msSince(sort));
    }

    printValue("events_table_rows", uint64_t(rows));
    printValue("events_table_index_ms", median(indexMs), 2);
    printValue("events_table_open_ms", median(openMs), 2);
    printValue("events_table_sort_ms", median(sortDurationMs), 1);
    printValue("events_table_sort_name_ms", median(sortNameMs), 1);
    printValue("events_table_sort_occupancy_ms", median(sortOccupancyMs), 1);
    printValue("events_table_filter_ms", median(filterMs), 1);
    printValue("events_table_scroll_frame_ms", median(scrollMs), 2);
    printValue("events_table_scroll_frame_max_ms", *std::max_element(scrollMs.begin(), scrollMs.end()), 2);
    printValue("events_table_scroll_jumps", uint64_t(scrollMs.size()));
    printValue("events_table_scroll_landed", uint64_t(landed));
    printValue("events_table_merged_lanes", uint64_t(sources.size()));
    printValue("events_table_merged_rows", uint64_t(mergedRows));
    printValue("events_table_merged_open_ms", median(mergedMs), 1);
    printValue("events_table_merged_sort_ms", median(mergedSortMs), 1);
    return kExitOk;
}

}  // namespace lanescope::bench
