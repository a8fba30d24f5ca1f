#pragma once
#include <functional>
#include <string>
#include <vector>

#include "query/TableSpec.h"

namespace lanescope::sql {

// A table of one segment whose rows are 0 .. rows() - 1 of something the report holds (its
// processes, threads, GPUs, strings), each value given by a function: for the small tables and
// the side tables. keyIsRow: column `key` of row i is i (StringIds' id), so an equality on it
// is a lookup. rows() is asked when a query plans, so it may be computed late.
class FunctionTable : public TableSpec {
public:
    using Value = std::function<void(uint32_t row, int column, sqlite3_context* ctx)>;
    FunctionTable(std::string name, std::vector<ColumnDef> columns, std::function<uint32_t()> rows, Value value,
                  int key = -1)
        : name_(std::move(name)),
          columns_(std::move(columns)),
          rows_(std::move(rows)),
          value_(std::move(value)),
          key_(key) {}

    const std::string& name() const override { return name_; }
    const std::vector<ColumnDef>& columns() const override { return columns_; }
    size_t segmentCount() const override { return 1; }
    uint32_t segmentSize(size_t) const override { return rows_(); }
    void value(size_t, uint32_t row, int column, sqlite3_context* ctx) const override { value_(row, column, ctx); }
    int keyColumn() const override { return key_; }
    bool keyIsRowNumber() const override { return key_ >= 0; }

private:
    std::string name_;
    std::vector<ColumnDef> columns_;
    std::function<uint32_t()> rows_;
    Value value_;
    int key_;
};

}  // namespace lanescope::sql
