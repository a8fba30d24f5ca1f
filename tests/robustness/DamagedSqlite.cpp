// Damage an nsys SQLite export through SQL on a copy: unknown enum values, absurd numbers,
// negative and reversed intervals, rows out of order, missing tables and columns, duplicates.
#include <sqlite3.h>

#include <stdexcept>

#include "DamagedCorpus.h"

namespace lanescope::test {
namespace {

constexpr const char* kFirstKernel = "rowid = (SELECT min(rowid) FROM CUPTI_ACTIVITY_KIND_KERNEL)";

std::string reorder(const std::string& table) {
    return "CREATE TABLE reordered AS SELECT * FROM " + table + " ORDER BY start DESC; DELETE FROM " + table +
           "; INSERT INTO " + table + " SELECT * FROM reordered; DROP TABLE reordered;";
}

void runSql(const std::filesystem::path& path, const std::string& sql) {
    sqlite3* db = nullptr;
    char* error = nullptr;
    const bool ok = sqlite3_open(path.c_str(), &db) == SQLITE_OK &&
                    sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) == SQLITE_OK;
    const std::string message = error ? error : (db ? sqlite3_errmsg(db) : "cannot open");
    sqlite3_free(error);
    sqlite3_close(db);
    if (!ok) throw std::runtime_error(path.string() + ": " + sql + ": " + message);
}

struct Edit {
    std::string name;
    std::string sql;
    Expect expect;
    std::string diagnostic = {};
    bool sameCounts = false;
};

std::vector<Edit> edits() {
    const std::string first = kFirstKernel;
    std::vector<Edit> list = {
        {"copyKind-99", "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET copyKind = 99 WHERE rowid % 3 = 0", Expect::Opens,
         "memcpy_unknown_copy_kind"},
        {"memKind-99", "UPDATE CUPTI_ACTIVITY_KIND_MEMSET SET memKind = 99", Expect::Opens},
        {"srcKind-dstKind-unknown", "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET srcKind = 99, dstKind = -7", Expect::Opens},
        {"nvtx-eventType-99", "UPDATE NVTX_EVENTS SET eventType = 99 WHERE rowid % 10 = 0", Expect::Opens,
         "nvtx_unsupported_event_type"},
        {"kernel-negative-durations", "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 1000 WHERE rowid % 7 = 0",
         Expect::Opens, "negative_duration"},
        {"api-end-before-start", "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET end = start - 1 WHERE rowid % 2 = 0",
         Expect::Opens, "negative_duration"},
        {"nvtx-end-before-start", "UPDATE NVTX_EVENTS SET end = start - 5 WHERE rowid % 4 = 0", Expect::Opens,
         "negative_duration"},
        {"nvtx-end-null", "UPDATE NVTX_EVENTS SET end = NULL WHERE rowid % 5 = 0", Expect::Opens,
         "nvtx_range_without_end"},
        {"rows-out-of-order",
         reorder("CUPTI_ACTIVITY_KIND_KERNEL") + reorder("CUPTI_ACTIVITY_KIND_RUNTIME") + reorder("NVTX_EVENTS") +
             reorder("OSRT_API"),
         Expect::Opens,
         {},
         true},
        {"kernel-start-int64-max", "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 9223372036854775807 WHERE " + first,
         Expect::Opens, "timestamp_out_of_range"},
        {"kernel-end-int64-max", "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = 9223372036854775807 WHERE " + first,
         Expect::Opens, "timestamp_out_of_range"},
        {"api-start-int64-min",
         "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET start = -9223372036854775808 "
         "WHERE rowid = (SELECT min(rowid) FROM CUPTI_ACTIVITY_KIND_RUNTIME)",
         Expect::Opens, "timestamp_out_of_range"},
        {"nvtx-times-int64-limits",
         "UPDATE NVTX_EVENTS SET start = -9223372036854775808 WHERE rowid = (SELECT min(rowid) FROM NVTX_EVENTS); "
         "UPDATE NVTX_EVENTS SET end = 9223372036854775807 WHERE rowid = (SELECT max(rowid) FROM NVTX_EVENTS)",
         Expect::Opens, "timestamp_out_of_range"},
        {"span-of-almost-2^63",  // the widest span whose length still fits in int64
         "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET start = -4611686018427387903 "
         "WHERE rowid = (SELECT min(rowid) FROM CUPTI_ACTIVITY_KIND_RUNTIME); "
         "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = 4611686018427387903 WHERE " +
             first,
         Expect::Opens},
        {"rowids-of-int64-min-and-max",  // the scan splits a table by rowid range
         "UPDATE NVTX_EVENTS SET rowid = -9223372036854775808 WHERE rowid = (SELECT min(rowid) FROM NVTX_EVENTS);"
         "UPDATE NVTX_EVENTS SET rowid = 9223372036854775807 WHERE rowid = (SELECT max(rowid) FROM NVTX_EVENTS);",
         Expect::Opens,
         {},
         true},
        {"memcpy-bytes-2^63", "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET bytes = 9223372036854775807", Expect::Opens},
        {"kernel-grid-2^63", "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET gridX = 9223372036854775807, blockX = -1",
         Expect::Opens},
        {"kernel-device-stream-2^63",
         "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId = 9223372036854775807, streamId = -9223372036854775808 "
         "WHERE " +
             first,
         Expect::Opens},
        {"string-ids-out-of-range",
         "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET shortName = 9223372036854775807, "
         "demangledName = -9223372036854775808 WHERE " +
             first,
         Expect::Opens, "string_id_missing"},
        {"timestamp-as-text", "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 'soon' WHERE " + first,
         Expect::OpensOrRefused},
        {"nvtx-text-blob", "UPDATE NVTX_EVENTS SET text = x'00ff0a0d' WHERE rowid % 3 = 0", Expect::Opens},
        {"kernel-name-16MB",
         "UPDATE StringIds SET value = printf('%.*c', 16000000, 'k') "
         "WHERE id = (SELECT shortName FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1)",
         Expect::Opens},
        {"duplicate-kernels", "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL",
         Expect::Opens},
        {"duplicate-correlation-ids",
         "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET correlationId = 1; UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET "
         "correlationId = 1",
         Expect::Opens},
        {"duplicate-gpus-threads-processes",
         "INSERT INTO TARGET_INFO_GPU SELECT * FROM TARGET_INFO_GPU; INSERT INTO ThreadNames SELECT * FROM "
         "ThreadNames; "
         "INSERT INTO PROCESSES SELECT * FROM PROCESSES",
         Expect::Opens},
        {"duplicate-string-ids",
         "ALTER TABLE StringIds RENAME TO Original; CREATE TABLE StringIds(id INTEGER, value TEXT); "
         "INSERT INTO StringIds SELECT id, 'other ' || value FROM Original; "
         "INSERT INTO StringIds SELECT id, value FROM Original; DROP TABLE Original",
         Expect::Opens},
        {"empty-event-tables",
         "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL; DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME; DELETE FROM NVTX_EVENTS; "
         "DELETE FROM CUPTI_ACTIVITY_KIND_MEMCPY; DELETE FROM CUPTI_ACTIVITY_KIND_MEMSET; DELETE FROM OSRT_API",
         Expect::OpensOrRefused},
        {"wal-journal-mode", "PRAGMA journal_mode = WAL", Expect::Opens, {}, true},
        {"no-StringIds", "DROP TABLE StringIds", Expect::Refused},
        {"no-META_DATA_EXPORT", "DROP TABLE META_DATA_EXPORT", Expect::OpensOrRefused},
    };
    for (const char* table :
         {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS", "TARGET_INFO_GPU", "ThreadNames",
          "PROCESSES", "TARGET_INFO_SESSION_START_TIME", "ANALYSIS_DETAILS"})
        list.push_back({std::string("no-") + table, std::string("DROP TABLE ") + table, Expect::Opens});
    const std::pair<const char*, const char*> columns[] = {{"CUPTI_ACTIVITY_KIND_KERNEL", "shortName"},
                                                           {"CUPTI_ACTIVITY_KIND_KERNEL", "end"},
                                                           {"CUPTI_ACTIVITY_KIND_RUNTIME", "correlationId"},
                                                           {"CUPTI_ACTIVITY_KIND_MEMCPY", "copyKind"},
                                                           {"NVTX_EVENTS", "text"},
                                                           {"NVTX_EVENTS", "end"},
                                                           {"StringIds", "value"},
                                                           {"TARGET_INFO_GPU", "name"},
                                                           {"ThreadNames", "nameId"}};
    for (const auto& [table, column] : columns)
        list.push_back({std::string("no-") + table + "." + column,
                        std::string("ALTER TABLE ") + table + " DROP COLUMN " + column, Expect::OpensOrRefused});
    return list;
}

}  // namespace

void addSqliteEdits(std::vector<DamagedCase>& cases, const std::filesystem::path& dir,
                    const std::filesystem::path& original) {
    for (const Edit& edit : edits()) {
        const auto path = dir / ("sql-" + edit.name + ".sqlite");
        std::filesystem::copy_file(original, path);
        runSql(path, edit.sql);
        cases.push_back({"sqlite " + edit.name, path, edit.expect, edit.diagnostic,
                         edit.sameCounts ? original : std::filesystem::path{}});
    }
}

}  // namespace lanescope::test
