#pragma once
#include <sqlite3.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lanescope::sql {

// The declared type of a column, as in CREATE TABLE (SQLite's affinity).
enum class ColumnType { Integer, Real, Text };
struct ColumnDef {
    const char* name;
    ColumnType type;
};

// What one SQL table of a report reads, for the virtual-table module (VirtualTable.h). Its rows
// come in segments (the events of one lane, a side table), a row being (segment, index in the
// segment); segments are in the report's order and their rows in time order when the table
// has a sorted column. Nothing is copied: value() reads the model.
class TableSpec {
public:
    virtual ~TableSpec() = default;
    virtual const std::string& name() const = 0;
    virtual const std::vector<ColumnDef>& columns() const = 0;

    virtual size_t segmentCount() const = 0;
    virtual uint32_t segmentSize(size_t segment) const = 0;
    // Sets the value of `column` of a row with sqlite3_result_* (text is static: the report
    // outlives every statement).
    virtual void value(size_t segment, uint32_t row, int column, sqlite3_context* ctx) const = 0;

    // The column whose values ascend within every segment (a start time), -1 if none. A range on
    // it is found by binary search, and rows come merged across segments in its order.
    virtual int sortedColumn() const { return -1; }
    virtual int64_t sortedValue(size_t /*segment*/, uint32_t /*row*/) const { return 0; }

    // Whether a column holds one value for every row of a segment (its thread, device, stream):
    // an equality on it skips the other segments. segmentValue: that value, nullopt for NULL.
    virtual bool isSegmentColumn(int /*column*/) const { return false; }
    virtual std::optional<int64_t> segmentValue(size_t /*segment*/, int /*column*/) const { return std::nullopt; }

    // The id column an equality finds through an index (built on first use, 16 bytes a row), -1 if
    // none; keyOf: a row's value of it, nullopt for NULL. keyIsRowNumber: the table has one
    // segment and the key of row i is i (StringIds), so no index is needed.
    virtual int keyColumn() const { return -1; }
    virtual std::optional<int64_t> keyOf(size_t /*segment*/, uint32_t /*row*/) const { return std::nullopt; }
    virtual bool keyIsRowNumber() const { return false; }

    // Whether the table numbers its rows as nsys's export does (its rowid there, which scripts
    // use: NVTX_EVENTS' is nsys's RangeId); nsysRowId: a row's number. Other tables' rowids
    // are (segment << 32) | row.
    virtual bool numbersRowsAsNsys() const { return false; }
    virtual int64_t nsysRowId(size_t /*segment*/, uint32_t /*row*/) const { return 0; }

    size_t rowCount() const;
};

// "CREATE TABLE x(a INTEGER, b TEXT)" for a table's columns (the declaration the module gives
// SQLite, and the export's CREATE TABLE).
std::string createTableSql(const std::string& schemaAndName, const std::vector<ColumnDef>& columns);

}  // namespace lanescope::sql
