#pragma once
#include <sqlite3.h>

#include <string>
#include <vector>

namespace lanescope::cli {

// Writes a query's rows to stdout as they come, in one of the `sql` command's formats: csv (a
// header of the column names, then the rows; RFC 4180 quoting), json (an array of one object
// per row, NULL as null) or table (aligned text, written once the rows are all in). Reals are
// printed in their shortest exact form. ok() is false once stdout failed.
class SqlOutput {
public:
    explicit SqlOutput(std::string format) : format_(std::move(format)) {}
    void columns(const std::vector<std::string>& names);
    bool row(sqlite3_stmt* row);
    bool finish();

private:
    bool flushIfLarge();

    std::string format_;
    std::vector<std::string> names_;
    std::vector<std::vector<std::string>> tableRows_;
    std::vector<bool> numeric_;
    std::string buffer_;
    bool anyJsonRow_ = false;
    bool statements_ = false;
    bool ok_ = true;
};

}  // namespace lanescope::cli
