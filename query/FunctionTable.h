#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "query/TableSpec.h"

namespace lanescope::sql {

// The column of a FunctionTable an equality finds without a scan, `column` -1 for none: through
// an index of `of` (a row's value of it) built on first use; without `of`, row i's value is i
// (StringIds' id), so an equality is a lookup.
struct FunctionKey {
    int column = -1;
    std::function<std::optional<int64_t>(uint32_t row)> of;
};

// A table of one segment whose rows are 0 .. rows() - 1 of something the report holds (its
// processes, threads, GPUs, strings), each value given by a function: for the small tables and
// the side tables. rows() is asked when a query plans, so it may be computed late.
class FunctionTable : public TableSpec {
public:
    using Value = std::function<void(uint32_t row, int column, sqlite3_context* ctx)>;
    FunctionTable(std::string name, std::vector<ColumnDef> columns, std::function<uint32_t()> rows, Value value,
                  FunctionKey key = {})
        : name_(std::move(name)),
          columns_(std::move(columns)),
          rows_(std::move(rows)),
          value_(std::move(value)),
          key_(std::move(key)) {}

    const std::string& name() const override { return name_; }
    const std::vector<ColumnDef>& columns() const override { return columns_; }
    size_t segmentCount() const override { return 1; }
    uint32_t segmentSize(size_t) const override { return rows_(); }
    void value(size_t, uint32_t row, int column, sqlite3_context* ctx) const override { value_(row, column, ctx); }
    int keyColumn() const override { return key_.column; }
    std::optional<int64_t> keyOf(size_t, uint32_t row) const override {
        return key_.of ? key_.of(row) : std::optional<int64_t>(row);
    }
    bool keyIsRowNumber() const override { return key_.column >= 0 && !key_.of; }

private:
    std::string name_;
    std::vector<ColumnDef> columns_;
    std::function<uint32_t()> rows_;
    Value value_;
    FunctionKey key_;
};

}  // namespace lanescope::sql
