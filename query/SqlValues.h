#pragma once
#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string_view>

#include "model/Report.h"

namespace lanescope::sql {

// Setting a column's value from a TableSpec::value (text is the report's own, never copied).
inline void resultInt(sqlite3_context* ctx, int64_t v) { sqlite3_result_int64(ctx, v); }
inline void resultReal(sqlite3_context* ctx, double v) { sqlite3_result_double(ctx, v); }
inline void resultNull(sqlite3_context* ctx) { sqlite3_result_null(ctx); }
inline void resultText(sqlite3_context* ctx, std::string_view s) {
    // An empty view may have no data, which SQLite would read as NULL rather than "".
    sqlite3_result_text(ctx, s.data() ? s.data() : "", int(s.size()), SQLITE_STATIC);
}
// A blob of bytes that are not the report's (copied).
inline void resultBlob(sqlite3_context* ctx, const void* bytes, size_t size) {
    sqlite3_result_blob64(ctx, bytes, size, SQLITE_TRANSIENT);
}
inline void resultInt(sqlite3_context* ctx, std::optional<int64_t> v) {
    if (v)
        sqlite3_result_int64(ctx, *v);
    else
        sqlite3_result_null(ctx);
}

// A string id as StringIds numbers it (model/StringPool.h exportId: the report's own string
// table's id).
inline void resultStringId(sqlite3_context* ctx, const Report& r, uint32_t id) {
    sqlite3_result_int64(ctx, r.strings.exportId(id));
}

// nsys's serialized GlobalId of a process and of a thread, as its export writes them for a
// report of one machine: (1 << 48) | (pid << 24) | tid, 24 bits each for pid and tid (so
// `(globalTid >> 24) & 0xFFFFFF` is the pid). nullopt for -1 (no process or thread).
inline constexpr int64_t kGlobalIdBase = int64_t{1} << 48;
inline int64_t globalPidOfPid(int64_t pid) { return kGlobalIdBase | ((pid & 0xFFFFFF) << 24); }
inline int64_t globalTidOfTid(int64_t pid, int64_t tid) { return globalPidOfPid(pid) | (tid & 0xFFFFFF); }
std::optional<int64_t> globalPidOf(const Report& report, int32_t process);
std::optional<int64_t> globalTidOf(const Report& report, int32_t thread);

}  // namespace lanescope::sql
