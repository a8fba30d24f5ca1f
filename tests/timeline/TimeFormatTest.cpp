#include <catch2/catch.hpp>

#include "timeline/TimeFormat.h"

using namespace lanescope;

TEST_CASE("durations take the unit that suits them") {
    CHECK(formatDuration(850) == "850 ns");
    CHECK(formatDuration(12345) == "12.35 µs");
    CHECK(formatDuration(3100000) == "3.100 ms");
    CHECK(formatDuration(1250000000) == "1.250 s");
    CHECK(formatDuration(-2000) == "-2.000 µs");
}

TEST_CASE("ruler ticks are round steps from the origin, far enough apart") {
    const auto t = rulerTicks(1'033'000, 601'033'000, 1200, 33'000);  // 600 ms over 1200 px
    CHECK(t.step_ns == 50'000'000);                                   // >= 90 px: 45 ms -> 50 ms
    REQUIRE(!t.times.empty());
    CHECK(t.times.front() == 50'033'000);
    for (size_t i = 1; i < t.times.size(); ++i) CHECK(t.times[i] - t.times[i - 1] == t.step_ns);
    CHECK(formatTick(t.times.front(), 33'000, t.step_ns) == "50 ms");
    const auto fine = rulerTicks(0, 1000, 1000, 0);  // 1 ns per px
    CHECK(fine.step_ns == 100);
    CHECK(formatTick(200, 0, fine.step_ns) == "200 ns");
    CHECK(rulerTicks(5, 5, 100).times.empty());
    CHECK(formatTick(33'500'000, 0, 500'000) == "33.5 ms");  // the value's unit, step's precision
    CHECK(formatTick(33'520'000, 0, 20'000) == "33.52 ms");
    CHECK(formatTick(0, 0, 20'000) == "0 µs");
    CHECK(formatTick(2'000'000'000, 0, 100'000'000) == "2.0 s");
}
