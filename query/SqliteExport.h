#pragma once
#include <cstdint>
#include <filesystem>
#include <string>

#include "query/ReportSql.h"

namespace lanescope::sql {

// What an export wrote.
struct SqliteExportStats {
    uint64_t tables = 0;
    uint64_t rows = 0;
};

// Writes the tables a ReportSql offers to a new SQLite file: nsys's that have rows (as nsys's
// export leaves out a kind of data the report lacks) and all of Lanescope's own, with nsys's
// table and column names and a META_DATA_EXPORT table naming Lanescope as the exporter, so
// scripts written for nsys exports run on it. The file is written under a
// temporary name beside `out` and renamed when complete: a failure or a cancel leaves no file.
// An existing `out` is refused unless `overwrite`. Returns "" or the one-line reason.
std::string exportSqlite(ReportSql& session, const Report& report, const std::filesystem::path& out, bool overwrite,
                         SqliteExportStats* stats = nullptr);

}  // namespace lanescope::sql
