#include <catch2/catch.hpp>
#include <string>

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
