#include <QRgb>
#include <catch2/catch.hpp>
#include <cmath>

#include "tests/support/TinyReport.h"
#include "timeline/Palette.h"

using namespace lanescope;

TEST_CASE("the low-to-high ramp runs from viridis's dark purple to its yellow") {
    CHECK(lowToHighRamp(0.0) == 0xFF440154u);
    CHECK(lowToHighRamp(0.5) == 0xFF21918Cu);
    CHECK(lowToHighRamp(1.0) == 0xFFFDE725u);
    CHECK(lowToHighRamp(-3.0) == lowToHighRamp(0.0));  // clamped
    CHECK(lowToHighRamp(7.0) == lowToHighRamp(1.0));
    CHECK(lowToHighRamp(std::nan("")) == lowToHighRamp(0.0));
    // Brighter all the way up (relative luminance), so that it reads in grey too.
    double luminance = -1;
    for (int i = 0; i <= 20; ++i) {
        const QRgb c = lowToHighRamp(i / 20.0);
        const double l = 0.2126 * qRed(c) + 0.7152 * qGreen(c) + 0.0722 * qBlue(c);
        CHECK(l > luminance);
        luminance = l;
    }
}

TEST_CASE("kernel colours replace the colour of the kernels they list, on any lane holding them") {
    test::TinyReport t;
    const int32_t process = t.process(1, "python3");
    const int32_t gpu = t.gpu(0, "GPU");
    const uint32_t stream = t.gpuLane(LaneKind::GpuStream, process, gpu, 17, "Stream 17");
    const uint32_t nccl = t.gpuLane(LaneKind::Nccl, process, gpu, -1, "NCCL");
    const uint32_t listed = t.kernel(1), other = t.kernel(2);
    t.event(stream, 0, 10, "ncclDevKernel_AllReduce", EventKind::Kernel, listed);
    t.event(stream, 20, 30, "gemm", EventKind::Kernel, other);
    t.event(nccl, 0, 10, "ncclDevKernel_AllReduce", EventKind::Kernel, listed);  // the copy on the NCCL row
    t.event(nccl, 40, 50, "nccl range", EventKind::NvtxRange, listed);  // not a kernel: its payload is no kernel row
    t.freeze();
    EventColors colours(t.r);
    CHECK(!colours.hasKernelColours());
    colours.setKernelColours({{listed}, {0xFF112233u}});
    REQUIRE(colours.hasKernelColours());
    const Lane& s = t.r.lanes[stream];
    const Lane& n = t.r.lanes[nccl];
    CHECK(colours.kernelColour(s, 0, 0xFF000001u) == 0xFF112233u);
    CHECK(colours.kernelColour(s, 1, 0xFF000001u) == 0xFF000001u);
    CHECK(colours.kernelColour(n, 0, 0xFF000001u) == 0xFF112233u);
    CHECK(colours.kernelColour(n, 1, 0xFF000001u) == 0xFF000001u);
    colours.setKernelColours({});
    CHECK(!colours.hasKernelColours());
}
