// lanescope-bench nccl: the communication analysis of many ranks (docs/analyses.md,
// "Communication"; the budget: 64 ranks x 10,000 collectives in under 1 s).
#include <memory>
#include <string>
#include <vector>

#include "analysis/communication/CollectiveInstances.h"
#include "tests/bench/Args.h"
#include "tests/bench/Commands.h"
#include "tests/bench/Measure.h"
#include "tests/support/TinyReport.h"

namespace lanescope::bench {
namespace {

// One rank of a data-parallel job: `collectives` all-reduces of 1 to 64 MiB on stream 17, their
// PyTorch args on the kernels, each after a compute kernel on stream 7 that it half overlaps.
// Rank r arrives r x 100 ns late at every tenth collective; the rest are in step.
std::unique_ptr<test::TinyReport> rankReport(uint64_t rank, uint64_t ranks, uint64_t collectives) {
    auto owned = std::make_unique<test::TinyReport>();
    test::TinyReport& t = *owned;
    const int32_t process = t.process(int64_t(1000 + rank), "python3");
    const int32_t gpu = t.gpu(int64_t(rank % 8), "NVIDIA H100 80GB HBM3");
    const uint32_t comm = t.gpuLane(LaneKind::GpuStream, process, gpu, 17, "Stream 17");
    const uint32_t compute = t.gpuLane(LaneKind::GpuStream, process, gpu, 7, "Stream 7");
    const uint32_t name = t.r.strings.intern("allreduce"), dtype = t.r.strings.intern("Float");
    const uint32_t group = t.r.strings.intern("0");
    for (uint64_t c = 0; c < collectives; ++c) {
        const int64_t at = int64_t(c) * 100'000;
        const int64_t late = c % 10 == 0 ? int64_t(rank) * 100 : 0;
        const uint32_t kernel = t.kernel(uint32_t(2 * c + 1));
        const int64_t elements = int64_t(1) << (18 + c % 7);  // 1 MiB to 64 MiB of floats
        CollectiveArgs args;
        args.kernel_row = kernel;
        args.name_id = name;
        args.dtype_id = dtype;
        args.group_name_id = group;
        args.in_nelems = args.out_nelems = elements;
        args.group_size = int32_t(ranks);
        t.r.collective_args.push_back(args);
        t.event(comm, at + 40'000 + late, at + 90'000, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", EventKind::Kernel,
                kernel);
        t.event(compute, at + 10'000, at + 65'000, "gemm", EventKind::Kernel, t.kernel(uint32_t(2 * c + 2)));
    }
    t.freeze();
    return owned;
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
        owned.push_back(rankReport(r, *ranks, *collectives));
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
    return kExitOk;
}

}  // namespace lanescope::bench
