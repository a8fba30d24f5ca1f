// Step ranges by name and the GPU's compute / communication / idle shares.
#include <catch2/catch.hpp>

#include "TestPaths.h"
#include "analysis/ranks/GpuShares.h"
#include "analysis/ranks/Steps.h"
#include "importers/ImportHelpers.h"
#include "support/TinyReport.h"

using namespace lanescope;

TEST_CASE("steps: names that are steps") {
    CHECK(stepNumber("step 3") == 3);
    CHECK(stepNumber("Step_12") == 12);
    CHECK(stepNumber("ProfilerStep#7") == 7);
    CHECK(stepNumber("STEP:0") == 0);
    CHECK(stepNumber("Optimizer.step#AdamW.step") == -1);
    CHECK(stepNumber("step") == -1);
    CHECK(stepNumber("stepper 3") == -1);
    CHECK(stepNumber("step 3a") == -1);
    CHECK(stepNumber("step 99999999999999999999") == -1);
}

TEST_CASE("steps: from the corpus, nsys and Kineto") {
    const auto nsys = test::importOk(test::dataFile("nsys-2025.3/train_1gpu.sqlite"));
    const auto steps = findSteps(*nsys);
    REQUIRE(!steps.empty());
    for (size_t i = 1; i < steps.size(); ++i) {
        CHECK(steps[i - 1].start_ns <= steps[i].start_ns);
        CHECK(steps[i].number == steps[i - 1].number + 1);
    }
    const auto kineto = test::importOk(test::dataFile("kineto/train_1gpu_rank0.pt.trace.json"));
    const auto profilerSteps = findSteps(*kineto);
    REQUIRE(!profilerSteps.empty());
    CHECK(kineto->str(kineto->lanes[profilerSteps[0].range.lane].events.name_id[profilerSteps[0].range.index]) ==
          "ProfilerStep#" + std::to_string(profilerSteps[0].number));
}

TEST_CASE("GPU shares: compute, communication, overlap and idle of hand-made work") {
    test::TinyReport t;
    const int32_t p = t.process(1, "p");
    const int32_t g = t.gpu(0, "GPU 0");
    const uint32_t a = t.gpuLane(LaneKind::GpuStream, p, g, 7, "Stream 7");
    const uint32_t b = t.gpuLane(LaneKind::GpuStream, p, g, 8, "Stream 8");
    t.event(a, 0, 10, "gemm", EventKind::Kernel, t.kernel(1));
    t.event(a, 40, 50, "copy", EventKind::Memcpy, t.memcpy({}));
    t.event(b, 5, 20, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", EventKind::Kernel, t.kernel(2));
    t.event(b, 60, 100, "ncclKernel_AllGather_RING_LL_Sum_int8_t", EventKind::Kernel, t.kernel(3));
    t.freeze();
    const GpuShares s = gpuShares(t.r);
    CHECK(s.window_ns == 100);
    CHECK(s.compute_ns == 20);
    CHECK(s.communication_ns == 55);
    CHECK(s.overlap_ns == 5);
    CHECK(s.idle_ns == 100 - (20 + 55 - 5));
    CHECK(s.share(s.idle_ns) == Approx(0.30));
    CHECK(s.hiddenCommunication() == Approx(5.0 / 55));
    CHECK(gpuShares(Report{}).window_ns == 0);
}
