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

// How to export.
struct SqliteExportOptions {
    bool overwrite = false;         // replace an existing file (--force)
    bool lanescope_tables = false;  // also write Lanescope's own tables (--with-lanescope-tables)
};

// Writes the tables a ReportSql offers to a new SQLite file as nsys 2025.3's export writes them:
// nsys's tables that have rows (nsys's export leaves out a kind of data the report lacks), in
// nsys's order, declared as nsys declares them (query/NsysDeclarations.h), and META_DATA_EXPORT
// naming Lanescope as the exporter, so scripts written for nsys exports run on it unchanged;
// Lanescope's own tables only when asked for. The file is written under a temporary name
// beside `out` and renamed when complete: a failure or a cancel leaves no file. An existing
// `out` is refused unless `overwrite`. Returns "" or the one-line reason.
std::string exportSqlite(ReportSql& session, const Report& report, const std::filesystem::path& out,
                         const SqliteExportOptions& options, SqliteExportStats* stats = nullptr);

}  // namespace lanescope::sql
