#include <fstream>

#include "ImportHelpers.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

std::filesystem::path writeFile(const std::filesystem::path& dir, const std::string& name, const std::string& bytes) {
    const auto path = dir / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

void runSql(const std::filesystem::path& path, const std::string& sql) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
}

}  // namespace

TEST_CASE("broken inputs fail with their exact error kind and one-line message") {
    const auto dir = tempDir("broken");
    const std::string sample = readFile(dataFile("nsys-2025.3/train_1gpu.sqlite"));

    SECTION("missing file") {
        const auto e = importError(dir / "nope.sqlite");
        CHECK(e.kind == ImportError::Kind::NotFound);
        CHECK(e.message == (dir / "nope.sqlite").string() + ": no such file");
    }
    SECTION("a folder") { CHECK(importError(dir).kind == ImportError::Kind::NotFound); }
    SECTION("empty file") {
        const auto path = writeFile(dir, "empty.sqlite", "");
        const auto e = importError(path);
        CHECK(e.kind == ImportError::Kind::Empty);
        CHECK(e.message == path.string() + ": empty file");
    }
    SECTION("text file named .sqlite") {
        const auto path = writeFile(dir, "notes.sqlite", "just some notes\n");
        const auto e = importError(path);
        CHECK(e.kind == ImportError::Kind::UnknownFormat);
        CHECK(e.message.starts_with(path.string() + ": unknown format"));
    }
    SECTION("truncated SQLite") {
        const auto path = writeFile(dir, "truncated.sqlite", sample.substr(0, sample.size() / 3));
        const auto e = importError(path);
        CHECK(e.kind == ImportError::Kind::Corrupt);
        CHECK(e.message.starts_with(path.string() + ": damaged"));
    }
    SECTION("SQLite missing only its last byte") {
        const auto path = writeFile(dir, "lastbyte.sqlite", sample.substr(0, sample.size() - 1));
        const auto e = importError(path);
        CHECK(e.kind == ImportError::Kind::Corrupt);
        CHECK(e.message == path.string() + ": damaged SQLite database: truncated (" +
                               std::to_string(sample.size() - 1) + " bytes of " + std::to_string(sample.size()) + ")");
    }
    SECTION("unrelated SQLite database") {
        const auto path = dir / "other.sqlite";
        runSql(path, "CREATE TABLE recipes(name TEXT, minutes INTEGER); INSERT INTO recipes VALUES('soup', 30);");
        const auto e = importError(path);
        CHECK(e.kind == ImportError::Kind::WrongSchema);
        CHECK(e.message == path.string() + ": not an Nsight Systems SQLite export: no StringIds table");
    }
    SECTION("nsys export without StringIds") {
        const auto path = writeFile(dir, "nostrings.sqlite", sample);
        runSql(path, "DROP TABLE StringIds;");
        const auto e = importError(path);
        CHECK(e.kind == ImportError::Kind::WrongSchema);
        CHECK(e.message == path.string() + ": not an Nsight Systems SQLite export: no StringIds table");
    }
    SECTION("events with missing ends, reversed times and dangling names are skipped and counted") {
        const auto path = writeFile(dir, "damaged-rows.sqlite", sample);
        runSql(path,
               "UPDATE OSRT_API SET end = start - 5 WHERE rowid IN (SELECT rowid FROM OSRT_API WHERE eventClass = 27 "
               "LIMIT 3);"
               "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET nameId = 99999999 WHERE rowid IN (SELECT rowid FROM "
               "CUPTI_ACTIVITY_KIND_RUNTIME LIMIT 2);"
               "INSERT INTO NVTX_EVENTS(start, end, eventType, text, globalTid) VALUES (100, NULL, 59, 'open', "
               "281493934965866);");
        const auto r = importOk(path);
        CHECK(r->diagnostics["negative_duration"] == 3);
        CHECK(r->diagnostics["string_id_missing"] == 2);
        CHECK(r->diagnostics["nvtx_range_without_end"] == 1);
        CHECK(r->counts().osrt == 73 - 3);
        CHECK(r->counts().cuda_api == 4067);
    }
    std::filesystem::remove_all(dir);
}
