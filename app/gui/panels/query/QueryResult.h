#pragma once
#include <sqlite3.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

// A query's result as the Query panel keeps it, bounded whatever the query returns: at most
// kMaxRows rows and kMaxBytes of cells and text; a result with more stops there and says so
// (cut()). Rows in the order the query returned them; each cell 16 bytes, its text (if any)
// in one arena.
class QueryResult {
public:
    static constexpr size_t kMaxRows = 100'000;
    static constexpr size_t kMaxBytes = size_t{64} << 20;
    enum class Type : uint8_t { Null, Integer, Real, Text };

    // Starts over with the columns of a statement (of a statement list the last one's rows stay).
    void begin(std::vector<std::string> columns);
    // Appends SQLite's current row; false, leaving the result cut, once the bounds are reached.
    bool append(sqlite3_stmt* row);

    const std::vector<std::string>& columns() const { return columns_; }
    size_t columnCount() const { return columns_.size(); }
    size_t rowCount() const { return columns_.empty() ? 0 : cells_.size() / columns_.size(); }
    // The query returned more rows than are kept.
    bool cut() const { return cut_; }

    Type type(size_t row, size_t column) const { return cell(row, column).type; }
    int64_t integer(size_t row, size_t column) const { return cell(row, column).integer; }
    double real(size_t row, size_t column) const { return cell(row, column).real; }
    std::string_view text(size_t row, size_t column) const {
        const Cell& c = cell(row, column);
        return std::string_view(text_).substr(size_t(c.offset), c.size);
    }
    // An integer cell's value; false for NULL, real and text cells.
    bool asInteger(size_t row, size_t column, int64_t& value) const {
        const Cell& c = cell(row, column);
        if (c.type == Type::Integer) value = c.integer;
        return c.type == Type::Integer;
    }

private:
    struct Cell {
        Type type = Type::Null;
        uint32_t size = 0;  // bytes of text
        union {
            int64_t integer = 0;
            double real;
            uint64_t offset;  // into text_
        };
    };
    const Cell& cell(size_t row, size_t column) const { return cells_[row * columns_.size() + column]; }
    size_t bytes() const { return cells_.size() * sizeof(Cell) + text_.size(); }

    std::vector<std::string> columns_;
    std::vector<Cell> cells_;  // row-major: row r's cells at [r * columns, (r + 1) * columns)
    std::string text_;         // the text cells' bytes, one after another
    bool cut_ = false;
};

}  // namespace lanescope
