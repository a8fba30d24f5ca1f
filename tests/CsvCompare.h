#pragma once
#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace lanescope::test {

inline std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

// Two CSV tables whose rows with equal totals may come in any order (corpus README): the
// header and the sequence of `totalOf(row)` must be equal, and the rows as sorted lists.
inline void checkSameTable(const std::string& expected, const std::string& actual,
                           const std::function<std::string(const std::string&)>& totalOf) {
    auto e = lines(expected), a = lines(actual);
    REQUIRE(!e.empty());
    REQUIRE(a.size() == e.size());
    CHECK(a[0] == e[0]);
    for (size_t i = 1; i < e.size(); ++i) CHECK(totalOf(a[i]) == totalOf(e[i]));
    std::sort(e.begin() + 1, e.end());
    std::sort(a.begin() + 1, a.end());
    for (size_t i = 1; i < e.size(); ++i) CHECK(a[i] == e[i]);
}

}  // namespace lanescope::test
