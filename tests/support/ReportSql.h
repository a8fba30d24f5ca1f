#pragma once
// SQL on a corpus file, for the expected answers of model tests on imported reports.
#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <vector>

#include "importers/ImportHelpers.h"

namespace lanescope::test {

// Every row of a query as text cells (NULL -> ""); empty when the query fails.
inline std::vector<std::vector<std::string>> sqliteRows(const std::filesystem::path& path, const std::string& sql) {
    std::vector<std::vector<std::string>> rows;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(("file:" + path.string() + "?immutable=1").c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
                        nullptr) == SQLITE_OK) {
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK) {
            while (sqlite3_step(stmt) == SQLITE_ROW) {
                std::vector<std::string> row;
                for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
                    const auto* text = sqlite3_column_text(stmt, c);
                    row.emplace_back(text ? reinterpret_cast<const char*>(text) : "");
                }
                rows.push_back(std::move(row));
            }
        }
        sqlite3_finalize(stmt);
    }
    sqlite3_close(db);
    return rows;
}

// How many interval events of an Nsight Systems export have a name that SQL `LIKE pattern`
// matches (ASCII case-insensitive), naming each as the importer does: NVTX push/pop and
// start/end ranges by coalesce(text, StringIds), kernels by demangledName, CUDA API and OS
// runtime calls by nameId, memcpys "[CUDA memcpy <label>]", memsets "[CUDA memset]", syncs by
// their ENUM_CUPTI_SYNC_TYPE label. Tables the file lacks count 0.
inline int64_t sqlNameLikeCount(const std::filesystem::path& path, const std::string& pattern) {
    const std::string like = " LIKE '" + pattern + "'";
    auto has = [&](const std::string& table) {
        return sqliteInt(path, "SELECT count(*) FROM sqlite_master WHERE name='" + table + "'") == 1;
    };
    auto count = [&](const std::string& table, const std::string& sql) -> int64_t {
        return has(table) ? sqliteInt(path, sql) : 0;
    };
    const std::string str = "(SELECT value FROM StringIds WHERE id = ";
    int64_t n = 0;
    n += count("NVTX_EVENTS",
               "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60) AND end "
               "IS NOT NULL AND end >= start AND coalesce(text, " +
                   str + "textId))" + like);
    n += count("CUPTI_ACTIVITY_KIND_KERNEL",
               "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE " + str + "demangledName)" + like);
    for (const char* api : {"CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_DRIVER"})
        n += count(api, std::string("SELECT count(*) FROM ") + api + " WHERE " + str + "nameId)" + like);
    n += count("OSRT_API", "SELECT count(*) FROM OSRT_API WHERE eventClass = 27 AND " + str + "nameId)" + like);
    n += count("CUPTI_ACTIVITY_KIND_MEMCPY",
               "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE '[CUDA memcpy ' || "
               "(SELECT label FROM ENUM_CUDA_MEMCPY_OPER WHERE id = copyKind) || ']'" +
                   like);
    n += count("CUPTI_ACTIVITY_KIND_MEMSET",
               "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE '[CUDA memset]'" + like);
    n += count("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
               "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION WHERE "
               "(SELECT label FROM ENUM_CUPTI_SYNC_TYPE WHERE id = syncType)" +
                   like);
    return n;
}

}  // namespace lanescope::test
