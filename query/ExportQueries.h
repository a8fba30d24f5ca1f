#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace lanescope::sql {

// A query as a user writes it for an nsys SQLite export, with a short name.
struct NamedQuery {
    std::string name;
    std::string sql;
};

// The queries issue 24 checks Lanescope's tables with, against sqlite3 on nsys's own export:
// kernels by name, kernels per device and stream, CUDA API by name, kernels joined to their
// launches, memcpy by kind, NVTX by text, OS runtime by name, a count of the kernels starting in
// [rangeBegin, rangeEnd) ns, thread names per pid. Durations are end - start, in ns. Used by
// the check test, `lanescope-bench sql` and the Query panel's examples.
std::vector<NamedQuery> exportQueries(int64_t rangeBegin, int64_t rangeEnd);

}  // namespace lanescope::sql
