#pragma once
#include <string>
#include <vector>

#include "query/LaneEvents.h"
#include "query/TableSpec.h"

namespace lanescope::sql {

// A table whose rows are events of lanes (LaneEvents), its first column their start in ns: the
// sorted column. Subclasses give the columns' values for (lane, event index).
class LaneEventTable : public TableSpec {
public:
    LaneEventTable(const Report& report, std::string name, std::vector<ColumnDef> columns,
                   std::function<bool(const Lane&)> picks, LaneEvents::Part part, std::optional<EventKind> kind)
        : report_(report),
          name_(std::move(name)),
          columns_(std::move(columns)),
          rows_(report, std::move(picks), part, kind) {}

    const std::string& name() const override { return name_; }
    const std::vector<ColumnDef>& columns() const override { return columns_; }
    size_t segmentCount() const override { return rows_.segmentCount(); }
    uint32_t segmentSize(size_t segment) const override { return rows_.segmentSize(segment); }
    int sortedColumn() const override { return 0; }
    int64_t sortedValue(size_t segment, uint32_t row) const override { return rows_.startNs(segment, row); }
    void value(size_t segment, uint32_t row, int column, sqlite3_context* ctx) const override {
        eventValue(rows_.lane(segment), rows_.event(segment, row), column, ctx);
    }

protected:
    virtual void eventValue(const Lane& lane, uint32_t event, int column, sqlite3_context* ctx) const = 0;

    const Report& report_;
    std::string name_;
    std::vector<ColumnDef> columns_;
    LaneEvents rows_;
};

}  // namespace lanescope::sql
