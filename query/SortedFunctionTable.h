#pragma once
#include <functional>
#include <string>
#include <vector>

#include "query/FunctionTable.h"

namespace lanescope::sql {

// A FunctionTable whose rows are sorted by one column (a side table kept in start order:
// Report::profiler_overhead, graph_api_events; an ENUM table by id): a range or an equality on
// that column is found by binary search. sortedValue(row) is the column's value of row `row`
// and must not descend from one row to the next.
class SortedFunctionTable : public FunctionTable {
public:
    SortedFunctionTable(std::string name, std::vector<ColumnDef> columns, std::function<uint32_t()> rows, Value value,
                        int sorted, std::function<int64_t(uint32_t row)> sortedValue)
        : FunctionTable(std::move(name), std::move(columns), std::move(rows), std::move(value)),
          sorted_(sorted),
          sortedValue_(std::move(sortedValue)) {}

    int sortedColumn() const override { return sorted_; }
    int64_t sortedValue(size_t, uint32_t row) const override { return sortedValue_(row); }

private:
    int sorted_;
    std::function<int64_t(uint32_t)> sortedValue_;
};

}  // namespace lanescope::sql
