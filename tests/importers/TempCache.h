#pragma once
#include <cstdint>
#include <filesystem>
#include <string>

#include "TestPaths.h"
#include "importers/cache/ReportCache.h"

namespace lanescope::test {

// A report cache in a fresh folder of its own (models/ under a temporary folder named after
// `name`), removed at the end of the test.
struct TempCache {
    std::filesystem::path root;
    ReportCache cache;
    explicit TempCache(const std::string& name, uint64_t max_bytes = ReportCache::kDefaultMaxBytes)
        : root(tempDir("cache-" + name)), cache(root / "models", max_bytes) {}
    ~TempCache() { std::filesystem::remove_all(root); }
};

}  // namespace lanescope::test
