// Runs the real lanescope-cli on every file of the damaged corpus (DamagedCorpus.h): each must
// end by itself within the limit with exit 0 (valid JSON, the diagnostics the case names) or
// exit 2 (exactly one line naming the file), never a signal, a hang or another exit code.
// Every diagnostic they raise is one model/DiagnosticKinds declares.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <map>

#include "CliProcess.h"
#include "DamagedCorpus.h"
#include "TestPaths.h"
#include "model/DiagnosticKinds.h"

using namespace lanescope::test;

namespace {

constexpr std::chrono::seconds kLimit{30};

// The "counts" object of `info --format json`, or "" when there is none.
std::string countsOf(const std::string& json) {
    const size_t begin = json.find("\"counts\": {");
    const size_t end = json.find('}', begin);
    return begin == std::string::npos || end == std::string::npos ? "" : json.substr(begin, end - begin);
}

const char* expectText(Expect e) {
    return e == Expect::Opens ? "opens" : e == Expect::Refused ? "refused" : "opens or refused";
}

}  // namespace

TEST_CASE("every damaged file ends in exit 0 or in exit 2 with one line naming it, never a crash or hang") {
    const auto root = tempDir("damaged");
    const std::map<std::string, std::string> env = {{"HOME", (root / "home").string()},
                                                    {"XDG_CACHE_HOME", (root / "cache").string()}};
    std::filesystem::create_directories(root / "sources");
    std::filesystem::create_directories(root / "cases");
    const auto pftrace = root / "sources" / "train_1gpu.pftrace";
    const auto exported = runCli(
        {"export", dataFile("nsys-2025.3/train_1gpu.sqlite").string(), "--to", "perfetto", "--out", pftrace.string()},
        kLimit, env);
    REQUIRE(exported.exitCode == 0);

    const auto started = std::chrono::steady_clock::now();
    const std::vector<DamagedCase> cases = makeDamagedCorpus(root / "cases", pftrace);
    REQUIRE(cases.size() >= 60);

    std::map<std::filesystem::path, std::string> originalCounts;
    auto countsOfOriginal = [&](const std::filesystem::path& original) {
        if (!originalCounts.contains(original)) {
            const CliRun run = runCli({"info", original.string(), "--format", "json"}, kLimit, env);
            REQUIRE(run.exitCode == 0);
            originalCounts[original] = countsOf(run.out);
        }
        return originalCounts[original];
    };

    int opened = 0, refused = 0, explained = 0;
    const std::string undeclared = lanescope::describeDiagnostic("").explanation;
    REQUIRE(!lanescope::describeDiagnostic("").declared());
    std::pair<double, std::string> slowest = {0, ""};
    for (const DamagedCase& c : cases) {
        const CliRun run = runCli({"info", c.file.string(), "--format", "json"}, kLimit, env);
        slowest = std::max(slowest, {run.seconds, c.name});
        INFO(c.name << " (" << c.file.filename().string() << "): " << run.describe() << ", expected "
                    << expectText(c.expect) << "\nstderr: " << run.err.substr(0, 2000));
        CHECK(run.exited());
        CHECK((run.exitCode == 0 || run.exitCode == 2));
        if (run.exitCode == 2) {
            ++refused;
            CHECK(run.err.size() > 1);
            CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
            CHECK(run.err.ends_with('\n'));
            CHECK(run.err.find(c.file.string()) != std::string::npos);
            CHECK(c.expect != Expect::Opens);
        }
        if (run.exitCode == 0) {
            ++opened;
            CHECK(run.out.starts_with('{'));
            CHECK(run.out.find("\"counts\": {") != std::string::npos);
            CHECK(c.expect != Expect::Refused);
            if (!c.diagnostic.empty()) CHECK(run.out.find('"' + c.diagnostic + '"') != std::string::npos);
            // Every diagnostic raised is declared: none gets the explanation of an unknown name.
            CHECK(run.out.find("\"explanation\": \"" + undeclared + '"') == std::string::npos);
            if (run.out.find("\"diagnostic_details\": [\n") != std::string::npos) ++explained;
            if (!c.sameCountsAs.empty()) CHECK(countsOf(run.out) == countsOfOriginal(c.sameCountsAs));
        }
    }
    CHECK(explained >= 10);  // damaged files that opened with diagnostics, each explained
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("damaged corpus: %zu cases, %d opened, %d refused, %.1f s (generation included; slowest %s, %.1f s)\n",
                cases.size(), opened, refused, seconds, slowest.second.c_str(), slowest.first);
    std::filesystem::remove_all(root);
}
