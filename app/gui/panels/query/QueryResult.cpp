#include "app/gui/panels/query/QueryResult.h"

namespace lanescope {

void QueryResult::begin(std::vector<std::string> columns) {
    columns_ = std::move(columns);
    cells_.clear();
    text_.clear();
    cut_ = false;
}

bool QueryResult::append(sqlite3_stmt* row) {
    if (columns_.empty()) return true;
    if (rowCount() >= kMaxRows || bytes() >= kMaxBytes) {
        cut_ = true;
        return false;
    }
    for (int c = 0; c < int(columns_.size()); ++c) {
        Cell& cell = cells_.emplace_back();
        switch (sqlite3_column_type(row, c)) {
            case SQLITE_INTEGER:
                cell.type = Type::Integer;
                cell.integer = sqlite3_column_int64(row, c);
                break;
            case SQLITE_FLOAT:
                cell.type = Type::Real;
                cell.real = sqlite3_column_double(row, c);
                break;
            case SQLITE_NULL:
                break;
            default: {  // text, and a blob as its bytes
                const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(row, c));
                cell.type = Type::Text;
                cell.size = uint32_t(sqlite3_column_bytes(row, c));
                cell.offset = text_.size();
                if (text) text_.append(text, cell.size);
            }
        }
    }
    return true;
}

}  // namespace lanescope
