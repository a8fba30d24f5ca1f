// Results kept beside a cache entry (ReportCache::storeResult, importers/cache/KeptResults.h):
// read back as stored, private; damaged ones deleted, never used; dropped with their entry or,
// entry-less, as the least recently used; a report without a place keeps nothing.
#include <sys/stat.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "ImportHelpers.h"
#include "TempCache.h"
#include "TestPaths.h"
#include "importers/cache/KeptResults.h"
#include "importers/cache/ReportCache.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

void writeFile(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), std::streamsize(bytes.size()));
}

}  // namespace

TEST_CASE("a kept result reads back as stored, in a private file named after its entry") {
    TempCache temp("kept-roundtrip");
    std::string error;
    const std::string bytes("table\0bytes", 11);
    REQUIRE(temp.cache.storeResult("k", "stats-nvtx_sum", bytes, error));
    CHECK(temp.cache.loadResult("k", "stats-nvtx_sum") == bytes);
    CHECK_FALSE(temp.cache.loadResult("k", "stats-osrt_sum"));
    CHECK_FALSE(temp.cache.loadResult("other", "stats-nvtx_sum"));
    const auto path = temp.cache.resultPath("k", "stats-nvtx_sum");
    CHECK(path.filename() == "k.model.stats-nvtx_sum.result");
    struct stat st {};
    REQUIRE(::stat(path.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
    // Stored again: replaced whole.
    REQUIRE(temp.cache.storeResult("k", "stats-nvtx_sum", "new", error));
    CHECK(temp.cache.loadResult("k", "stats-nvtx_sum") == std::string("new"));
    CHECK(temp.cache.storeResult("k", "empty", "", error));
    CHECK(temp.cache.loadResult("k", "empty") == std::string());
    // A name that could leave the folder or another entry's place is refused.
    for (const char* bad : {"", "../x", "a.b", "a/b", "a b"}) {
        CHECK_FALSE(temp.cache.storeResult("k", bad, bytes, error));
        CHECK(error.find("name") != std::string::npos);
        CHECK_FALSE(temp.cache.loadResult("k", bad));
    }
}

TEST_CASE("a damaged kept result is deleted, never used") {
    TempCache temp("kept-damaged");
    std::string error;
    const std::string bytes(1000, 'x');
    const auto path = temp.cache.resultPath("k", "r");
    const auto damage = [&](const std::function<void(std::string&)>& change) {
        REQUIRE(temp.cache.storeResult("k", "r", bytes, error));
        std::string file = readFile(path);
        change(file);
        writeFile(path, file);
        CHECK_FALSE(temp.cache.loadResult("k", "r"));
        CHECK_FALSE(std::filesystem::exists(path));
    };
    damage([](std::string& f) { f[100] ^= 1; });             // a byte of the result
    damage([](std::string& f) { f[3] ^= 1; });               // the header's tag
    damage([](std::string& f) { f[9] ^= 1; });               // its length
    damage([](std::string& f) { f[17] ^= 1; });              // its checksum
    damage([](std::string& f) { f.resize(f.size() - 1); });  // cut short
    damage([](std::string& f) { f += 'x'; });                // a byte more
    damage([](std::string& f) { f.resize(10); });            // inside the header
    REQUIRE(temp.cache.storeResult("k", "r", bytes, error));
    CHECK(temp.cache.loadResult("k", "r") == bytes);  // stored again, used again
}

TEST_CASE("kept results count in the bound and go with their entry, or entry-less when least recently used") {
    const auto report = importOk(dataFile("fuzz/small.sqlite"));
    uint64_t entryBytes = 0;
    {
        TempCache measure("kept-measure");
        std::string error;
        REQUIRE(measure.cache.store(*report, "k", error));
        entryBytes = std::filesystem::file_size(measure.cache.entryPath("k"));
    }
    const std::string result(size_t(entryBytes / 2), 'r');
    // Room for two entries with their results, or three without.
    TempCache temp("kept-bound", entryBytes * 3 + entryBytes / 4);
    std::string error;
    const auto exists = [&](const std::filesystem::path& p) { return std::filesystem::exists(p); };
    const auto later = [] { std::this_thread::sleep_for(std::chrono::milliseconds(5)); };
    REQUIRE(temp.cache.store(*report, "k1", error));
    REQUIRE(temp.cache.storeResult("k1", "a", result, error));
    REQUIRE(temp.cache.storeResult("k1", "b", result, error));  // k1 and its results: 2 entries' worth
    later();
    // Results whose entry is gone (dropped as damaged, or never stored) last as long as they are
    // not the least recently used.
    REQUIRE(temp.cache.storeResult("gone", "a", result, error));  // 2.5 entries' worth: fits
    later();
    REQUIRE(temp.cache.store(*report, "k2", error));  // 3.5: k1 goes, and its results with it
    CHECK_FALSE(exists(temp.cache.entryPath("k1")));
    CHECK_FALSE(exists(temp.cache.resultPath("k1", "a")));
    CHECK_FALSE(exists(temp.cache.resultPath("k1", "b")));
    CHECK(exists(temp.cache.resultPath("gone", "a")));
    CHECK(exists(temp.cache.entryPath("k2")));
    later();
    REQUIRE(temp.cache.store(*report, "k3", error));  // 2.5: fits
    later();
    REQUIRE(temp.cache.store(*report, "k4", error));  // 3.5: the entry-less result is the oldest
    CHECK_FALSE(exists(temp.cache.resultPath("gone", "a")));
    CHECK(exists(temp.cache.entryPath("k2")));
    CHECK(exists(temp.cache.entryPath("k3")));
    CHECK(exists(temp.cache.entryPath("k4")));
    // A result larger than kMaxResultBytes is not kept.
    CHECK_FALSE(temp.cache.storeResult("k4", "huge", std::string(ReportCache::kMaxResultBytes + 1, 'h'), error));
    CHECK(error.find("too large") != std::string::npos);
    CHECK_FALSE(exists(temp.cache.resultPath("k4", "huge")));
}

TEST_CASE("a report keeps results where it was attached to, and none without a place") {
    TempCache temp("kept-place");
    const auto report = importOk(dataFile("fuzz/small.sqlite"));
    std::string error;
    const Report other;
    CHECK_FALSE(KeptResults::of(other).store("x", "bytes", error));
    CHECK(error.empty());  // not a failure: there is nowhere to keep it
    CHECK_FALSE(KeptResults::of(other).load("x"));
    KeptResults::attach(*report, std::make_shared<const ReportCache>(temp.cache), "key");
    REQUIRE(KeptResults::of(*report).store("x", "bytes", error));
    CHECK(temp.cache.loadResult("key", "x") == std::string("bytes"));
    CHECK(KeptResults::of(*report).load("x") == std::string("bytes"));
    KeptResults::attach(*report, std::make_shared<const ReportCache>(temp.cache), "another");  // the first stays
    CHECK(KeptResults::of(*report).load("x") == std::string("bytes"));
}

TEST_CASE("a result larger than a result file is kept in parts, and a lost part loses it whole") {
    TempCache temp("kept-parts");
    const auto report = importOk(dataFile("fuzz/small.sqlite"));
    KeptResults::attach(*report, std::make_shared<const ReportCache>(temp.cache), "key");
    const KeptResults& kept = KeptResults::of(*report);
    std::string bytes(2 * ReportCache::kMaxResultBytes + 12345, '\0');
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = char(i * 131 % 251);
    std::string error;
    REQUIRE(kept.store("lanes", bytes, error));
    CHECK(exists(temp.cache.resultPath("key", "lanes_part2")));
    CHECK_FALSE(exists(temp.cache.resultPath("key", "lanes_part3")));
    CHECK(kept.load("lanes") == bytes);
    REQUIRE(kept.store("small", "whole", error));  // one that fits stays one file
    CHECK_FALSE(exists(temp.cache.resultPath("key", "small_part0")));
    CHECK(kept.load("small") == std::string("whole"));
    std::filesystem::remove(temp.cache.resultPath("key", "lanes_part1"));
    CHECK_FALSE(kept.load("lanes"));
}
