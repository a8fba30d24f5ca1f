#pragma once
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace lanescope::test {

// An expected CSV, inflated with xz when it is kept compressed (files over 300 KB).
inline std::string expectedCsv(const std::filesystem::path& csv) {
    if (std::filesystem::exists(csv)) {
        std::ifstream in(csv, std::ios::binary);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }
    const auto xz = csv.string() + ".xz";
    REQUIRE(std::filesystem::exists(xz));
    std::string out;
    FILE* pipe = ::popen(("xz -dc '" + xz + "'").c_str(), "r");
    REQUIRE(pipe);
    char buf[65536];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
    REQUIRE(::pclose(pipe) == 0);
    return out;
}

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
