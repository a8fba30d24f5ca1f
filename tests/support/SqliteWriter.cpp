#include "tests/support/SqliteWriter.h"

#include <stdexcept>

namespace lanescope::bench {
namespace {

[[noreturn]] void fail(sqlite3* db, const std::string& what) {
    throw std::runtime_error(what + ": " + (db ? sqlite3_errmsg(db) : "out of memory"));
}

}  // namespace

WritableDb::WritableDb(const std::filesystem::path& path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK)
        fail(db_, "cannot create " + path.string());
    exec("PRAGMA journal_mode=OFF");
    exec("PRAGMA synchronous=OFF");
    exec("BEGIN");
}

WritableDb::~WritableDb() { sqlite3_close(db_); }

void WritableDb::exec(const char* sql) {
    if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
        fail(db_, std::string("SQL failed: ") + std::string(sql).substr(0, 60));
}

void WritableDb::commit() { exec("COMMIT"); }

InsertStmt::InsertStmt(const WritableDb& db, std::string_view table, std::initializer_list<std::string_view> columns)
    : db_(db.handle()) {
    std::string sql = "INSERT INTO " + std::string(table) + " (";
    std::string params;
    for (std::string_view column : columns) {
        if (!params.empty()) {
            sql += ", ";
            params += ", ";
        }
        sql += column;
        params += "?";
    }
    sql += ") VALUES (" + params + ")";
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK) fail(db_, "cannot prepare " + sql);
}

InsertStmt::~InsertStmt() { sqlite3_finalize(stmt_); }

void InsertStmt::insert(std::initializer_list<SqlValue> values) {
    int index = 1;
    for (const SqlValue& v : values) {
        switch (v.type) {
            case SqlValue::Type::Null:
                sqlite3_bind_null(stmt_, index);
                break;
            case SqlValue::Type::Int:
                sqlite3_bind_int64(stmt_, index, v.integer);
                break;
            case SqlValue::Type::Text:
                sqlite3_bind_text(stmt_, index, v.text.data(), static_cast<int>(v.text.size()), SQLITE_STATIC);
                break;
        }
        ++index;
    }
    if (sqlite3_step(stmt_) != SQLITE_DONE) fail(db_, "insert failed");
    sqlite3_reset(stmt_);
}

}  // namespace lanescope::bench
