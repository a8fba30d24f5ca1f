#include <catch2/catch.hpp>

#include "analysis/Summary.h"

using lanescope::summarize;

TEST_CASE("summarize uses nsys definitions: even median averages, sample stddev") {
    std::vector<int64_t> values = {4, 1, 3, 2};
    const auto s = summarize(values);
    CHECK(s.count == 4);
    CHECK(s.total == 10);
    CHECK(s.min == 1);
    CHECK(s.max == 4);
    CHECK(s.mean == Approx(2.5));
    CHECK(s.median == Approx(2.5));
    CHECK(s.stddev == Approx(1.2909944487));  // sqrt(5/3)
}

TEST_CASE("summarize of one value has zero deviation, of none is all zero") {
    std::vector<int64_t> one = {7};
    CHECK(summarize(one).stddev == 0.0);
    CHECK(summarize(one).median == 7.0);
    std::vector<int64_t> none;
    CHECK(summarize(none).count == 0);
}
