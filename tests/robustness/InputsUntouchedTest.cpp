// Runs info, stats and analyze (analyze alone under sanitizers) on every report of tests/data
// and ../shared/corpus and checks that the folders are exactly as before: same entries, sizes,
// mtimes and content hashes, no -journal/-wal/-shm or converted file beside an input (the
// nsys-rep cache must go to the per-user cache, pointed here at a temp folder).
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>

#include "Absent.h"
#include "CliProcess.h"
#include "FileSnapshot.h"
#include "TestPaths.h"

using namespace lanescope::test;

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

bool isReport(const std::filesystem::path& file) {
    const std::string name = file.filename().string();
    for (const char* ext : {".sqlite", ".json", ".json.gz", ".pftrace", ".nsys-rep", ".qdrep"})
        if (name.ends_with(ext)) return true;
    return false;
}

}  // namespace

TEST_CASE("a full CLI pass over the corpus leaves every input and its folder untouched") {
    std::vector<std::filesystem::path> roots = {dataFile("")};
    const std::filesystem::path shared(LANESCOPE_SHARED_CORPUS);
    if (std::filesystem::exists(shared))
        roots.push_back(shared);
    else if (everythingRequired())
        FAIL("../shared/corpus is absent, and CI=true requires it");
    else
        WARN("../shared/corpus is absent: only tests/data checked");
    for (auto& root : roots) root = std::filesystem::canonical(root);

    const auto home = tempDir("untouched");
    const std::map<std::string, std::string> env = {{"HOME", home.string()},
                                                    {"XDG_CACHE_HOME", (home / "cache").string()}};
    const auto started = std::chrono::steady_clock::now();
    const Snapshot before = snapshot(roots);

    std::vector<std::filesystem::path> reports;
    for (const auto& [path, state] : before)
        if (!state.directory && isReport(path)) reports.push_back(path);
    REQUIRE(reports.size() >= 10);

    int runs = 0;
    for (const auto& report : reports) {
        std::vector<std::vector<std::string>> commands = {{"info", report.string(), "--format", "json"},
                                                          {"stats", report.string(), "--report", "cuda_gpu_kern_sum"},
                                                          {"analyze", report.string(), "--rule", "gpu_gaps"}};
        // Under sanitizers analyze alone (import and analysis): the three read their input the
        // same way, which the release run checks, and each sanitized process costs seconds.
        if (kSanitized) commands.erase(commands.begin(), commands.end() - 1);
        for (const std::vector<std::string>& args : commands) {
            const CliRun run = runCli(args, std::chrono::seconds(120), env);
            ++runs;
            INFO(args[0] << " " << report.string() << ": " << run.describe() << "\nstderr: " << run.err);
            CHECK(run.exitCode == 0);  // .nsys-rep too: read natively
        }
    }
    const Snapshot after = snapshot(roots);
    CHECK(describeDifferences(before, after) == "");
    // The native reader writes nothing, not even to the cache.
    CHECK(!std::filesystem::exists(home / "cache" / "lanescope" / "nsys-export"));
    std::printf("inputs untouched: %zu entries hashed, %zu reports, %d CLI runs%s, %.1f s\n", before.size(),
                reports.size(), runs, kSanitized ? " under sanitizers" : "",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    std::filesystem::remove_all(home);
}
