// lanescope-cli refuses a report that would not fit in memory with exit 2 and one line saying
// how much it needs and how much there is; LANESCOPE_MEMORY_LIMIT_MB stands in for a small
// machine.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>

#include "CliProcess.h"
#include "TestPaths.h"

using namespace lanescope::test;

TEST_CASE("the CLI refuses a report that does not fit in the memory available, in one line") {
    const auto home = tempDir("memlimit");
    for (const char* file : {"nsys-2025.3/train_1gpu.sqlite", "kineto/train_1gpu_rank0.pt.trace.json",
                             "kineto/ddp_rank0.pt.trace.json.gz", "fuzz/small.pftrace"}) {
        const auto path = dataFile(file).string();
        const CliRun run = runCli({"info", path, "--format", "json"}, std::chrono::seconds(30),
                                  {{"LANESCOPE_MEMORY_LIMIT_MB", "1"}, {"HOME", home.string()}});
        INFO(file << ": " << run.describe() << ": " << run.err);
        CHECK(run.exitCode == 2);
        CHECK(run.out.empty());
        CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
        CHECK(run.err.starts_with("lanescope-cli: " + path + ": needs about "));
        CHECK(run.err.find(" of memory to open (") != std::string::npos);
        CHECK(run.err.find("1.0 MB is available") != std::string::npos);

        const CliRun roomy = runCli({"info", path, "--format", "json"}, std::chrono::seconds(30),
                                    {{"LANESCOPE_MEMORY_LIMIT_MB", "4096"}, {"HOME", home.string()}});
        CHECK(roomy.exitCode == 0);
    }
    std::filesystem::remove_all(home);
}
