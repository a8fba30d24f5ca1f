#include "tests/support/SyntheticRows.h"

#include <algorithm>

namespace lanescope::bench {
namespace {

template <typename Row>
void sortRows(std::vector<Row>& rows) {
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return a.start != b.start ? a.start < b.start : a.end > b.end; });
}

}  // namespace

void RowBatch::sortByStart() {
    sortRows(nvtx);
    sortRows(api);
    sortRows(kernels);
    sortRows(memcpys);
    sortRows(memsets);
    sortRows(osrt);
}

}  // namespace lanescope::bench
