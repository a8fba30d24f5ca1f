#include "app/cli/SqlOutput.h"

#include <charconv>

#include "analysis/JsonWriter.h"
#include "app/cli/CliSupport.h"
#include "app/cli/TextTable.h"

namespace lanescope::cli {
namespace {

std::string realText(double v) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, v).ptr;
    return std::string(text, end);
}

// A cell as text: NULL as "" (csv, table), text as it is.
std::string cellText(sqlite3_stmt* row, int c) {
    switch (sqlite3_column_type(row, c)) {
        case SQLITE_NULL:
            return {};
        case SQLITE_INTEGER:
            return std::to_string(sqlite3_column_int64(row, c));
        case SQLITE_FLOAT:
            return realText(sqlite3_column_double(row, c));
        default:
            return std::string(reinterpret_cast<const char*>(sqlite3_column_text(row, c)),
                               size_t(sqlite3_column_bytes(row, c)));
    }
}

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char ch : text) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return quoted + "\"";
}

}  // namespace

void SqlOutput::columns(const std::vector<std::string>& names) {
    if (format_ == "table" && statements_) finish();  // the previous statement's table
    statements_ = true;
    names_ = names;
    numeric_.assign(names.size(), true);
    if (format_ == "csv") {
        for (size_t c = 0; c < names.size(); ++c) buffer_ += (c ? "," : "") + csvField(names[c]);
        buffer_ += '\n';
    }
}

bool SqlOutput::row(sqlite3_stmt* row) {
    const int n = int(names_.size());
    if (format_ == "csv") {
        for (int c = 0; c < n; ++c) {
            if (c) buffer_ += ',';
            buffer_ += csvField(cellText(row, c));
        }
        buffer_ += '\n';
    } else if (format_ == "json") {
        buffer_ += anyJsonRow_ ? ",\n  {" : "[\n  {";
        anyJsonRow_ = true;
        for (int c = 0; c < n; ++c) {
            buffer_ += (c ? ", " : "") + JsonWriter::quote(names_[size_t(c)]) + ": ";
            const int type = sqlite3_column_type(row, c);
            buffer_ += type == SQLITE_NULL                              ? "null"
                       : type == SQLITE_INTEGER || type == SQLITE_FLOAT ? cellText(row, c)
                                                                        : JsonWriter::quote(cellText(row, c));
        }
        buffer_ += '}';
    } else {
        auto& cells = tableRows_.emplace_back();
        for (int c = 0; c < n; ++c) {
            const int type = sqlite3_column_type(row, c);
            if (type == SQLITE_TEXT || type == SQLITE_BLOB) numeric_[size_t(c)] = false;
            cells.push_back(type == SQLITE_NULL ? "NULL" : cellText(row, c));
        }
        return true;
    }
    return flushIfLarge();
}

bool SqlOutput::flushIfLarge() {
    if (buffer_.size() < (1 << 20)) return ok_;
    ok_ = ok_ && writeOut(buffer_);
    buffer_.clear();
    return ok_;
}

bool SqlOutput::finish() {
    if (format_ == "json") {
        buffer_ += anyJsonRow_ ? "\n]\n" : "[]\n";
        anyJsonRow_ = false;
    } else if (format_ == "table" && statements_) {
        buffer_ += renderTextTable(names_, tableRows_, numeric_);
        buffer_ += "(" + std::to_string(tableRows_.size()) + (tableRows_.size() == 1 ? " row)\n" : " rows)\n");
        tableRows_.clear();
    }
    ok_ = ok_ && writeOut(buffer_);
    buffer_.clear();
    return ok_;
}

}  // namespace lanescope::cli
