#pragma once
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>

#include "TestPaths.h"
#include "analysis/NvtxProjection.h"
#include "importers/Importer.h"

namespace lanescope::test {

inline std::unique_ptr<Report> importOk(const std::filesystem::path& path, ImportOptions options = {}) {
    NullProgress progress;
    ImportResult result = importFile(path, options, progress);
    INFO(path.string() << ": " << (result.ok() ? "" : result.error().message));
    REQUIRE(result.ok());
    return std::move(result.report());
}

// The report as the viewer holds it: imported, plus the derived "NVTX on GPU" lanes.
inline std::unique_ptr<Report> importAsViewed(const std::filesystem::path& path) {
    ImportOptions options;
    options.add_view_lanes = [](Report& r) { addNvtxProjectionLanes(r); };
    return importOk(path, options);
}

inline ImportError importError(const std::filesystem::path& path, ImportOptions options = {}) {
    NullProgress progress;
    ImportResult result = importFile(path, options, progress);
    REQUIRE_FALSE(result.ok());
    return result.error();
}

// One integer from a query on a SQLite file, opened read-only; -1 when the query fails.
inline int64_t sqliteInt(const std::filesystem::path& path, const std::string& sql) {
    sqlite3* db = nullptr;
    int64_t value = -1;
    if (sqlite3_open_v2(("file:" + path.string() + "?immutable=1").c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
                        nullptr) == SQLITE_OK) {
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW)
            value = sqlite3_column_int64(stmt, 0);
        sqlite3_finalize(stmt);
    }
    sqlite3_close(db);
    return value;
}

// An export kept xz-compressed in ../shared, inflated into a temporary file.
inline std::filesystem::path inflatedXz(const std::filesystem::path& xz, const std::filesystem::path& dir) {
    const auto out = dir / xz.stem();
    const std::string command = "xz -dc '" + xz.string() + "' > '" + out.string() + "'";
    REQUIRE(std::system(command.c_str()) == 0);
    return out;
}

// The reports as the plain pointers the rank comparison takes.
inline std::vector<const Report*> rawReports(const std::vector<std::unique_ptr<Report>>& reports) {
    std::vector<const Report*> out;
    for (const auto& r : reports) out.push_back(r.get());
    return out;
}

// FNV-1a of a whole file, to prove inputs are unchanged.
inline uint64_t fileHash(const std::filesystem::path& path) {
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : readFile(path)) h = (h ^ c) * 1099511628211ull;
    return h;
}

}  // namespace lanescope::test
