// Runs info, stats and analyze on every report of tests/data and ../shared/corpus and checks
// that the folders are exactly as before: same entries, sizes, mtimes and content hashes, no
// -journal/-wal/-shm or converted file beside an input (the nsys-rep cache must go to the
// per-user cache, pointed here at a temp folder).
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
    for (const char* ext : {".sqlite", ".json", ".json.gz", ".pftrace", ".nsys-rep"})
        if (name.ends_with(ext)) return true;
    return false;
}

}  // namespace

TEST_CASE("a full CLI pass over the corpus leaves every input and its folder untouched") {
    std::vector<std::filesystem::path> roots = {dataFile("")};
    const std::filesystem::path shared(LANESCOPE_SHARED_CORPUS);
    if (std::filesystem::exists(shared)) roots.push_back(shared);
    else if (everythingRequired()) FAIL("../shared/corpus is absent, and CI=true requires it");
    else WARN("../shared/corpus is absent: only tests/data checked");
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

    int runs = 0, converted = 0;
    for (const auto& report : reports) {
        const bool nsysRep = report.extension() == ".nsys-rep";
        for (const std::vector<std::string>& args :
             {std::vector<std::string>{"info", report.string(), "--format", "json"},
              std::vector<std::string>{"stats", report.string(), "--report", "cuda_gpu_kern_sum"},
              std::vector<std::string>{"analyze", report.string(), "--rule", "gpu_gaps"}}) {
            const CliRun run = runCli(args, std::chrono::seconds(120), env);
            ++runs;
            INFO(args[0] << " " << report.string() << ": " << run.describe() << "\nstderr: " << run.err);
            // Without a new enough nsys a .nsys-rep is refused (exit 2); every other report opens.
            CHECK((run.exitCode == 0 || (nsysRep && run.exitCode == 2)));
            if (nsysRep && run.exitCode == 0) ++converted;
        }
    }
    const Snapshot after = snapshot(roots);
    CHECK(describeDifferences(before, after) == "");
    if (converted > 0) CHECK(!std::filesystem::is_empty(home / "cache" / "lanescope"));
    std::printf("inputs untouched: %zu entries hashed, %zu reports, %d CLI runs (%d on converted .nsys-rep)%s, "
                "%.1f s\n",
                before.size(), reports.size(), runs, converted, kSanitized ? " under sanitizers" : "",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    std::filesystem::remove_all(home);
}
