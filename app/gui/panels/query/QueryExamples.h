#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace lanescope {

// An example of the Query panel's Examples menu, written as for an nsys SQLite export.
struct QueryExample {
    std::string title;
    std::string sql;
    std::vector<std::string> tables;  // what it reads: offered where each of them has rows
};

// The examples, in menu order; the time-range count counts the kernels starting in
// [begin_ns, end_ns) of the report's own timeline.
std::vector<QueryExample> queryExamples(int64_t begin_ns, int64_t end_ns);

}  // namespace lanescope
