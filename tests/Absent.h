#pragma once
#include <catch2/catch.hpp>
#include <cstdlib>
#include <string_view>

namespace lanescope::test {

// True under CI=true, where ../shared and nsys are always present: a test input found absent
// there is a failure, not a skip.
inline bool everythingRequired() {
    const char* ci = std::getenv("CI");
    return ci && std::string_view(ci) == "true";
}

}  // namespace lanescope::test

// Ends the current test case when an optional input is absent (../shared/corpus beside a
// lone clone, an installed nsys): a warning that says so, or a failure under CI=true.
#define LANESCOPE_SKIP_ABSENT(what)                                                                       \
    do {                                                                                                  \
        if (::lanescope::test::everythingRequired()) FAIL(what << " is absent, and CI=true requires it"); \
        WARN(what << " is absent: skipped");                                                              \
        return;                                                                                           \
    } while (0)
