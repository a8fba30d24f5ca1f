#pragma once
// One rank of a made-up data-parallel job, for measuring the communication analysis and its panel
// at scale (lanescope-bench nccl, gui_communication_tests).
#include <cstdint>
#include <memory>

#include "tests/support/TinyReport.h"

namespace lanescope::test {

// Rank `rank` of `ranks`: `collectives` all-reduces of 1 to 64 MiB on stream 17, their PyTorch
// args on the kernels, each after a compute kernel on stream 7 that it half overlaps, one every
// 100 µs. Rank r arrives r x 100 ns late at every tenth collective; the rest are in step.
inline std::unique_ptr<TinyReport> ncclRankReport(uint64_t rank, uint64_t ranks, uint64_t collectives) {
    auto owned = std::make_unique<TinyReport>();
    TinyReport& t = *owned;
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
    t.r.meta.begin_ns = 0;
    t.r.meta.end_ns = int64_t(collectives) * 100'000;
    t.freeze();
    return owned;
}

}  // namespace lanescope::test
