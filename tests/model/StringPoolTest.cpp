#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "model/StringPool.h"

using lanescope::StringPool;

TEST_CASE("StringPool interns each text once, id 0 is the empty string") {
    StringPool pool;
    CHECK(pool.str(0).empty());
    const uint32_t a = pool.intern("kernel");
    CHECK(pool.intern("kernel") == a);
    CHECK(pool.intern("other") != a);
    CHECK(pool.str(a) == "kernel");
    CHECK(pool.find("kernel") == a);
    CHECK(pool.find("missing") == UINT32_MAX);
    CHECK(pool.intern("") == 0);
}

TEST_CASE("StringPool views stay valid while it grows past many blocks") {
    StringPool pool;
    const std::string_view first = pool.str(pool.intern("first"));
    const std::string big(200000, 'x');  // larger than one block
    pool.intern(big);
    for (int i = 0; i < 50000; ++i) pool.intern("name " + std::to_string(i));
    CHECK(first == "first");
    CHECK(pool.str(pool.find("name 49999")) == "name 49999");
    CHECK(pool.str(pool.find(big)).size() == big.size());
    CHECK(pool.size() == 50003);
}

TEST_CASE("StringPool adopts a report's string table with its ids, the empty string staying id 0") {
    StringPool pool;
    pool.adoptTable(std::vector<std::string>{"[Unknown]", "a", "", "b"});
    CHECK(pool.tableSize() == 4);
    CHECK(pool.str(0).empty());
    CHECK(pool.str(1) == "a");
    CHECK(pool.str(2).empty());  // a repeat of id 0, kept at its place
    CHECK(pool.str(3) == "b");
    CHECK(pool.tableZeroAlias() == 4);  // the table's string 0, after the table
    CHECK(pool.str(4) == "[Unknown]");
    CHECK(pool.exportId(4) == 0);
    CHECK(pool.exportId(3) == 3);
    CHECK(pool.exportStr(0) == "[Unknown]");
    CHECK(pool.exportStr(3) == "b");
    CHECK(pool.intern("") == 0);
    CHECK(pool.intern("a") == 1);
    CHECK(pool.intern("[Unknown]") == 4);
    CHECK(pool.intern("extra") == 5);  // Lanescope's own strings come after
    CHECK(pool.exportId(5) == 5);
}
