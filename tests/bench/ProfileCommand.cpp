// lanescope-bench profile: the CPU profile's views over many samples (docs/performance.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "analysis/CpuProfile.h"
#include "importers/StackInterner.h"
#include "model/LaneFreezer.h"
#include "tests/bench/Args.h"
#include "tests/bench/Commands.h"
#include "tests/bench/Measure.h"

namespace lanescope::bench {
namespace {

// A report of `samples` CPU samples on 8 threads of one process, 1 kHz while running, whose
// stacks come from a program of 3,000 functions in 40 modules: 20,000 distinct call paths 8 to
// 48 frames deep that share their outer frames (a main loop, a few phases), drawn with a
// skewed (Zipf-like) frequency as real profiles are.
Report syntheticProfile(uint64_t samples) {
    Report r;
    r.processes.push_back({1000, r.strings.intern("trainer")});
    std::vector<uint32_t> functions, modules;
    for (int m = 0; m < 40; ++m) modules.push_back(r.strings.intern("/usr/lib/libmodule" + std::to_string(m) + ".so"));
    for (int f = 0; f < 3000; ++f) functions.push_back(r.strings.intern("function_" + std::to_string(f)));
    std::mt19937_64 rng(42);
    StackInterner interner;
    std::vector<uint32_t> paths;
    std::vector<FrameName> frames;
    for (int p = 0; p < 20000; ++p) {
        const int depth = 8 + static_cast<int>(rng() % 41);
        frames.clear();
        for (int d = 0; d < depth; ++d) {
            // Outer frames come from few functions (shared prefixes), inner ones from many.
            const uint64_t choices = d < 4 ? 2 + d : std::min<uint64_t>(3000, 8u << std::min(d, 8));
            const uint32_t f = static_cast<uint32_t>((d * 131 + rng() % choices) % 3000);
            frames.push_back({functions[f], modules[f % 40]});
        }
        std::reverse(frames.begin(), frames.end());  // innermost first
        paths.push_back(interner.intern(frames));
    }
    r.stacks = interner.release();
    const int threads = 8;
    for (int t = 0; t < threads; ++t) {
        r.threads.push_back({1000 + t, 0, r.strings.intern("worker " + std::to_string(t))});
        Lane lane;
        lane.kind = LaneKind::CpuSamples;
        lane.thread = t;
        lane.process = 0;
        lane.name_id = r.strings.intern("CPU samples");
        r.lanes.push_back(std::move(lane));
    }
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<int64_t> clock(threads, 0);
    for (uint64_t i = 0; i < samples; ++i) {
        const int t = static_cast<int>(i % threads);
        clock[t] += rng() % 10 == 0 ? 5000000 : 1000000;  // 1 ms apart, sometimes a pause
        const auto path = paths[static_cast<size_t>(std::pow(unit(rng), 3.0) * double(paths.size() - 1))];
        InstantColumns& in = r.lanes[static_cast<size_t>(t)].instants;
        in.time_ns.push_back(clock[t]);
        in.name_id.push_back(r.stacks.frame_function[r.stacks.node_frame[path]]);
        in.payload.push_back(path);
    }
    for (Lane& lane : r.lanes) freezeLane(lane, r.diagnostics);
    r.meta.begin_ns = 0;
    r.meta.end_ns = *std::max_element(clock.begin(), clock.end());
    return r;
}

}  // namespace

// lanescope-bench profile [--samples N] [--runs K]
int profileCommand(int argc, char** argv) {
    const Args args = parseArgs(argc, argv, 2, {"samples", "runs"});
    if (!args.error.empty()) return usageError(args.error);
    const auto samples = args.options.count("samples") ? parseCount(args.options.at("samples")) : 1000000;
    const auto runs = args.options.count("runs") ? parseCount(args.options.at("runs")) : 5;
    if (!samples || !runs) return usageError("--samples and --runs need positive counts");
    const Report report = syntheticProfile(*samples);
    const TimeRange tenth{report.meta.end_ns / 100 * 45, report.meta.end_ns / 100 * 55};
    std::vector<double> count, flat, topDown, bottomUp, whole, range;
    for (uint64_t run = 0; run < *runs; ++run) {
        Stopwatch all;
        Stopwatch step;
        const StackCounts counts = countSamples(report, {});
        count.push_back(step.seconds() * 1000.0);
        step = Stopwatch();
        flatProfile(report, counts);
        flat.push_back(step.seconds() * 1000.0);
        step = Stopwatch();
        topDownTree(report, counts);
        topDown.push_back(step.seconds() * 1000.0);
        step = Stopwatch();
        bottomUpTree(report, counts);
        bottomUp.push_back(step.seconds() * 1000.0);
        whole.push_back(all.seconds() * 1000.0);
        all = Stopwatch();
        SampleSelection part;
        part.range = tenth;
        const StackCounts partCounts = countSamples(report, part);
        flatProfile(report, partCounts);
        topDownTree(report, partCounts);
        bottomUpTree(report, partCounts);
        range.push_back(all.seconds() * 1000.0);
    }
    size_t sampleBytes = 0;
    for (const Lane& lane : report.lanes) sampleBytes += lane.instants.memoryBytes();
    printValue("samples", *samples);
    printValue("stack_nodes", uint64_t(report.stacks.nodeCount()));
    printValue("unique_frames", uint64_t(report.stacks.frameCount()));
    printValue("bytes_per_sample", double(sampleBytes) / double(*samples), 1);
    printValue("stacks_mb", double(report.stacks.memoryBytes()) / 1048576.0, 2);
    printValue("count_ms", median(count), 2);
    printValue("flat_ms", median(flat), 2);
    printValue("top_down_ms", median(topDown), 2);
    printValue("bottom_up_ms", median(bottomUp), 2);
    printValue("profile_whole_ms", median(whole), 2);
    printValue("profile_tenth_ms", median(range), 2);
    return kExitOk;
}

}  // namespace lanescope::bench
