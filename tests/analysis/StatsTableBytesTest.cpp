// Statistics tables as bytes (analysis/StatsTableBytes.h): every report of the registry on a
// corpus report reads back cell for cell; bytes it did not write (cut short, changed, too many)
// give nothing or a table, never a read outside them.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <random>

#include "TestPaths.h"
#include "analysis/Registry.h"
#include "analysis/StatsTableBytes.h"
#include "importers/Importer.h"

using namespace lanescope;
using namespace lanescope::test;

namespace {

bool sameCell(const StatsTable::Cell& a, const StatsTable::Cell& b) {
    if (a.index() != b.index()) return false;
    if (const auto* real = std::get_if<StatsTable::Real>(&a)) {
        const auto& other = std::get<StatsTable::Real>(b);
        // The same bits: a value kept is printed as the one computed.
        return std::memcmp(&real->value, &other.value, sizeof(double)) == 0 && real->decimals == other.decimals &&
               real->half_even == other.half_even;
    }
    if (const auto* value = std::get_if<int64_t>(&a)) return *value == std::get<int64_t>(b);
    return std::get<std::string>(a) == std::get<std::string>(b);
}

void requireSame(const StatsTable& a, const StatsTable& b) {
    REQUIRE(a.name == b.name);
    REQUIRE(a.header == b.header);
    REQUIRE(a.rows_left_out == b.rows_left_out);
    REQUIRE(a.rows.size() == b.rows.size());
    for (size_t r = 0; r < a.rows.size(); ++r) {
        REQUIRE(a.rows[r].size() == b.rows[r].size());
        for (size_t c = 0; c < a.rows[r].size(); ++c) REQUIRE(sameCell(a.rows[r][c], b.rows[r][c]));
    }
}

std::vector<StatsTable> corpusTables() {
    NullProgress progress;
    ImportResult result = importFile(dataFile("nsys-2025.3/train_1gpu.sqlite"), {}, progress);
    REQUIRE(result.ok());
    StatsOptions options;
    options.trace_rows = 50;  // and rows_left_out counted
    std::vector<StatsTable> tables;
    for (const StatsReportEntry& entry : statsReports()) tables.push_back(entry.compute(*result.report(), {}, options));
    return tables;
}

}  // namespace

TEST_CASE("every statistics table of a corpus report reads back from its bytes, cell for cell") {
    const std::vector<StatsTable> tables = corpusTables();
    size_t rows = 0, leftOut = 0;
    for (const StatsTable& table : tables) {
        INFO(table.name);
        const std::optional<StatsTable> back = decodeStatsTable(encodeStatsTable(table));
        REQUIRE(back);
        requireSame(table, *back);
        CHECK(toCsv(*back) == toCsv(table));
        rows += table.rows.size();
        leftOut += table.rows_left_out;
    }
    CHECK(rows > 100);  // the corpus report fills them
    CHECK(leftOut > 0);
    StatsTable odd;  // every kind of cell, an empty row, text with a zero byte, half-even rounding
    odd.name = "odd";
    odd.header = {"a", ""};
    odd.rows = {
        {int64_t{-1}, StatsTable::Real{-0.0, 3, true}}, {}, {std::string("x\0y", 3), StatsTable::Real{1e300, 0}}};
    const auto back = decodeStatsTable(encodeStatsTable(odd));
    REQUIRE(back);
    requireSame(odd, *back);
}

TEST_CASE("bytes a table was not written as give nothing, or a table, never a read outside them") {
    const std::vector<StatsTable> tables = corpusTables();
    const auto withRows =
        std::find_if(tables.begin(), tables.end(), [](const StatsTable& t) { return t.rows.size() > 3; });
    REQUIRE(withRows != tables.end());
    const std::string bytes = encodeStatsTable(*withRows);
    // Cut short anywhere, or with a byte more: nothing.
    for (size_t size = 0; size < bytes.size(); ++size)
        CHECK_FALSE(decodeStatsTable(std::string_view(bytes).substr(0, size)));
    CHECK_FALSE(decodeStatsTable(bytes + '\0'));
    // Bytes changed anywhere: a table or nothing (ASan sees any read outside them); a changed
    // format tag is nothing.
    std::mt19937_64 random(7);
    size_t decoded = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        std::string changed = bytes;
        for (int k = 0; k < 1 + trial % 4; ++k) changed[random() % changed.size()] ^= char(1 + random() % 255);
        decoded += decodeStatsTable(changed).has_value();
    }
    CHECK(decoded < 3000);
    std::string tag = bytes;
    tag[0] ^= 1;
    CHECK_FALSE(decodeStatsTable(tag));
    // Huge counts in a few bytes: refused without reserving them.
    std::string huge = bytes.substr(0, 8 + 4 + withRows->name.size());
    huge += std::string("\xff\xff\xff\x7f", 4);
    CHECK_FALSE(decodeStatsTable(huge));
}
