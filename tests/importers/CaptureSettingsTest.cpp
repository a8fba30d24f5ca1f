// The capture settings read from a report's `Analysis Options Data` section against nsys 2025.3's
// META_DATA_CAPTURE of the same report, row for row; a damaged section is refused.
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <cstring>

#include "TestPaths.h"
#include "importers/nsysrep/CaptureSettings.h"
#include "importers/nsysrep/ProtoReader.h"

using namespace lanescope;
using namespace lanescope::test;
using nsysrep::CaptureSetting;

namespace {

// A section of a report and its offset in the file, found through the table of contents: the
// last 16 bytes are a u64 TOC offset and "U3w[END]"; the TOC is repeated 1 { 1 name, 2 offset,
// 3 length }.
struct Section {
    std::string bytes;
    uint64_t offset = 0;
};

Section sectionOf(const std::string& file, std::string_view name) {
    REQUIRE(file.size() >= 16);
    REQUIRE(file.ends_with("U3w[END]"));
    uint64_t toc = 0;
    std::memcpy(&toc, file.data() + file.size() - 16, sizeof toc);
    REQUIRE(toc <= file.size() - 16);
    nsysrep::ProtoReader entries(std::string_view(file).substr(toc, file.size() - 16 - toc), toc);
    for (nsysrep::ProtoField entry; entries.next(entry);) {
        if (entry.number != 1 || entry.wire != 2) continue;
        std::string_view entryName;
        Section section;
        uint64_t length = 0;
        nsysrep::ProtoReader fields(entry.bytes, 0);
        for (nsysrep::ProtoField f; fields.next(f);) {
            if (f.number == 1 && f.wire == 2) entryName = f.bytes;
            if (f.number == 2 && f.wire == 0) section.offset = f.value;
            if (f.number == 3 && f.wire == 0) length = f.value;
        }
        if (entryName != name) continue;
        REQUIRE(section.offset + length <= toc);
        section.bytes = file.substr(section.offset, length);
        return section;
    }
    FAIL("no section " << name);
    return {};
}

std::vector<CaptureSetting> exportedSettings(const std::filesystem::path& path) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(path.string().c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "SELECT name, value FROM META_DATA_CAPTURE ORDER BY rowid", -1, &stmt, nullptr) ==
            SQLITE_OK);
    std::vector<CaptureSetting> rows;
    auto text = [&](int column) {
        return std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, column)));
    };
    while (sqlite3_step(stmt) == SQLITE_ROW) rows.push_back({text(0), text(1)});
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return rows;
}

void checkEqualToExport(const std::string& report, const std::string& exported) {
    INFO(report);
    const Section options = sectionOf(readFile(dataFile(report)), "Analysis Options Data");
    const std::vector<CaptureSetting> read = nsysrep::readCaptureSettings(options.bytes, options.offset);
    const std::vector<CaptureSetting> expected = exportedSettings(dataFile(exported));
    REQUIRE(!expected.empty());
    size_t same = 0;
    while (same < read.size() && same < expected.size() && read[same].name == expected[same].name &&
           read[same].value == expected[same].value)
        ++same;
    INFO("the first " << same << " rows are equal");
    if (same < read.size() && same < expected.size()) {
        CHECK(read[same].name == expected[same].name);
        CHECK(read[same].value == expected[same].value);
    }
    CHECK(read.size() == expected.size());
}

}  // namespace

TEST_CASE("capture settings equal the export's META_DATA_CAPTURE row for row (2025.3)") {
    checkEqualToExport("nsys-2025.3/train_metrics.nsys-rep", "nsys-2025.3/train_metrics.sqlite");
    checkEqualToExport("nsys-2025.3/cpu_1gpu.nsys-rep", "nsys-2025.3/cpu_1gpu.sqlite");
}

TEST_CASE("a damaged Analysis Options Data section throws MalformedProto") {
    const Section options =
        sectionOf(readFile(dataFile("nsys-2025.3/train_metrics.nsys-rep")), "Analysis Options Data");
    const std::string_view bytes = options.bytes;
    // Cut in the middle of the process message, and a first tag of wire type 7.
    CHECK_THROWS_AS(nsysrep::readCaptureSettings(bytes.substr(0, bytes.size() / 2), options.offset),
                    nsysrep::MalformedProto);
    CHECK_THROWS_AS(nsysrep::readCaptureSettings("\x0f" + options.bytes, options.offset), nsysrep::MalformedProto);
    CHECK_THROWS_WITH(nsysrep::readCaptureSettings(bytes.substr(0, bytes.size() / 2), options.offset),
                      Catch::Contains("at byte"));
}
