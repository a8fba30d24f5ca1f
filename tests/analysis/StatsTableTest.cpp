#include <catch2/catch.hpp>

#include "analysis/StatsTable.h"

using lanescope::formatCell;
using lanescope::StatsTable;

TEST_CASE("Real cells round the exact binary value half away from zero, like SQLite round()") {
    CHECK(formatCell(StatsTable::Real{15611.25, 1}) == "15611.3");  // exact tie: up
    CHECK(formatCell(StatsTable::Real{21228.85, 1}) == "21228.8");  // stored below the tie
    CHECK(formatCell(StatsTable::Real{0.0005, 3}) == "0.001");
    CHECK(formatCell(StatsTable::Real{-2.5, 0}) == "-3");
    CHECK(formatCell(StatsTable::Real{0.0, 1}) == "0.0");
}

TEST_CASE("CSV quotes fields with commas and quotes") {
    StatsTable t;
    t.header = {"Total", "Name"};
    t.rows.push_back({int64_t{5}, std::string("f(a, b)")});
    t.rows.push_back({int64_t{6}, std::string("say \"hi\"")});
    CHECK(lanescope::toCsv(t) == "Total,Name\n5,\"f(a, b)\"\n6,\"say \"\"hi\"\"\"\n");
}

TEST_CASE("half-to-even rounding for nsys's unit conversions; an empty table is empty CSV") {
    CHECK(formatCell(StatsTable::Real{0.3125, 3, true}) == "0.312");  // cuda_gpu_trace's MB/s
    CHECK(formatCell(StatsTable::Real{0.3125, 3}) == "0.313");        // SQLite's round()
    StatsTable t;
    t.header = {"Total", "Name"};
    CHECK(lanescope::toCsv(t).empty());
}
