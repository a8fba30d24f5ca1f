#include <algorithm>
#include <catch2/catch.hpp>
#include <utility>
#include <vector>

#include "analysis/NsysStatsSupport.h"
#include "analysis/Summary.h"
#include "tests/support/Rng.h"

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

// Large samples take the radix selection: its median must be the sorted sample's, whatever the
// spread (narrow, wide, negative, one far outlier, all equal), for odd and even counts. (Totals
// stay within int64, as durations of one report do.)
TEST_CASE("summarize finds the median of large samples as sorting does") {
    lanescope::bench::Rng rng(42);
    const std::vector<std::pair<int64_t, int64_t>> spreads = {{0, 10},
                                                              {1000, 5'000'000},
                                                              {-1'000'000'000, 1'000'000'000},
                                                              {0, int64_t{1} << 40},
                                                              {-(int64_t{1} << 40), int64_t{1} << 40},
                                                              {7, 7}};
    for (const auto& [lo, hi] : spreads)
        for (const size_t n : {size_t{20'001}, size_t{100'000}, size_t{250'003}}) {
            std::vector<int64_t> values(n);
            for (int64_t& v : values) v = rng.between(lo, hi);
            if (lo == 0 && hi == 10) values.back() = int64_t{1} << 62;  // one outlier stretches the range
            std::vector<int64_t> sorted = values;
            std::sort(sorted.begin(), sorted.end());
            const double expected =
                n % 2 ? double(sorted[n / 2]) : (double(sorted[n / 2 - 1]) + double(sorted[n / 2])) / 2;
            INFO("spread " << lo << ".." << hi << ", " << n << " values");
            const auto s = summarize(values);
            CHECK(s.median == expected);
            CHECK(s.min == sorted.front());
            CHECK(s.max == sorted.back());
        }
}

TEST_CASE("summarize: an even count whose middle values lie far apart") {
    std::vector<int64_t> values;
    for (int i = 0; i < 10'001; ++i) values.push_back(int64_t{1} << 40);
    for (int i = 0; i < 10'001; ++i) values.push_back(i % 2);  // 0 and 1: the lower half
    const auto s = summarize(values);
    CHECK(s.median == double((int64_t{1} << 40) + 1) / 2);
    std::vector<int64_t> shuffled = {5, 9, 1, 9};
    CHECK(summarize(shuffled).median == 7.0);
}

TEST_CASE("summarize of 32-bit values equals that of the same values in 64 bits") {
    lanescope::bench::Rng rng(7);
    for (const size_t n : {size_t{1}, size_t{2}, size_t{1001}, size_t{40'000}, size_t{40'001}}) {
        std::vector<uint32_t> narrow(n);
        for (uint32_t& v : narrow) v = uint32_t(rng.between(0, UINT32_MAX));
        std::vector<int64_t> wide(narrow.begin(), narrow.end());
        const auto a = summarize(narrow), b = summarize(wide);
        INFO(n << " values");
        CHECK(a.count == b.count);
        CHECK(a.total == b.total);
        CHECK(a.min == b.min);
        CHECK(a.max == b.max);
        CHECK(a.mean == b.mean);
        CHECK(a.median == b.median);
        CHECK(a.stddev == b.stddev);
    }
}

TEST_CASE("a statistics group keeps 32-bit values until one does not fit, then all in 64 bits") {
    lanescope::nsysstats::Group g;
    g.add(5);
    g.add(int64_t{UINT32_MAX});
    CHECK(g.narrow == std::vector<uint32_t>{5, UINT32_MAX});
    CHECK(g.values.empty());
    g.add(int64_t{UINT32_MAX} + 1);  // 4.29 s and a nanosecond
    g.add(7);
    CHECK(g.narrow.empty());
    CHECK(g.values == std::vector<int64_t>{5, int64_t{UINT32_MAX}, int64_t{UINT32_MAX} + 1, 7});
    lanescope::nsysstats::Group negative;
    negative.add(-1);
    CHECK(negative.values == std::vector<int64_t>{-1});
}
