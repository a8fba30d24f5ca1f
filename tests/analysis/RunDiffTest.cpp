// Run-to-run diff by name, on corpus reports and checked against their own nsys stats tables.
#include <catch2/catch.hpp>

#include "TestPaths.h"
#include "analysis/Registry.h"
#include "analysis/ranks/RunDiff.h"
#include "importers/ImportHelpers.h"

using namespace lanescope;

TEST_CASE("diff: train_1gpu against ddp_rank0 lists the NCCL kernels as added") {
    const auto base = test::importOk(test::dataFile("nsys-2025.3/train_1gpu.sqlite"));
    const auto cand = test::importOk(test::dataFile("nsys-2025.3/ddp_rank0.sqlite"));
    const std::vector<DiffRow> rows = diffRuns(*base, *cand);
    REQUIRE(!rows.empty());
    int ncclAdded = 0;
    for (const DiffRow& r : rows) {
        if (r.category == "kernel" && r.name.starts_with("ncclDevKernel_")) {
            CHECK(std::string(r.status()) == "added");
            CHECK(r.base_count == 0);
            CHECK(r.cand_count == 24);
            CHECK_FALSE(r.hasRatio());
            ++ncclAdded;
        }
    }
    CHECK(ncclAdded == 2);  // AllReduce and Broadcast
    // Sorted by the absolute change of total time.
    for (size_t i = 1; i < rows.size(); ++i) CHECK(std::llabs(rows[i - 1].delta()) >= std::llabs(rows[i].delta()));
    // Each side's totals are its own cuda_gpu_kern_sum.
    int64_t baseKernels = 0, candKernels = 0;
    for (const DiffRow& r : rows)
        if (r.category == "kernel") {
            baseKernels += r.base_total_ns;
            candKernels += r.cand_total_ns;
        }
    auto sumTotal = [](const StatsTable& t) {
        int64_t total = 0;
        for (const auto& row : t.rows) total += std::get<int64_t>(row[1]);
        return total;
    };
    CHECK(baseKernels == sumTotal(*computeStats(*base, "cuda_gpu_kern_sum")));
    CHECK(candKernels == sumTotal(*computeStats(*cand, "cuda_gpu_kern_sum")));
}

TEST_CASE("diff: a report against itself changes nothing") {
    const auto a = test::importOk(test::dataFile("kineto/train_1gpu_rank0.pt.trace.json"));
    const std::vector<DiffRow> rows = diffRuns(*a, *a);
    REQUIRE(!rows.empty());
    for (const DiffRow& r : rows) {
        CHECK(std::string(r.status()) == "same");
        CHECK(r.delta() == 0);
        CHECK(r.ratio() == Approx(1.0));
    }
    const StatsTable t = diffTable(rows);
    CHECK(t.header.size() == 11);
    CHECK(t.rows.size() == rows.size());
}
