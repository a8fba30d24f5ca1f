#pragma once
#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

// A read-only, immutable connection to a SQLite file (the file is never written, locked or
// given a journal). Not thread-safe: open one connection per thread.
class SqliteDb {
public:
    // Returns nullptr and sets `error` to SQLite's message when the file cannot be opened.
    static std::unique_ptr<SqliteDb> openReadOnly(const std::filesystem::path& path, std::string& error);
    ~SqliteDb();
    SqliteDb(const SqliteDb&) = delete;
    SqliteDb& operator=(const SqliteDb&) = delete;

    sqlite3* handle() const { return db_; }
    bool hasTable(std::string_view table) const;
    // The tables (not views) whose names start with `prefix`, sorted by name.
    std::vector<std::string> tablesStartingWith(std::string_view prefix) const;
    // Column names of a table, in declaration order; empty when the table is absent.
    std::vector<std::string> columns(std::string_view table) const;
    std::string lastError() const { return sqlite3_errmsg(db_); }
    // "" when the file holds all the pages its header promises, else why not: SQLite reads a
    // cut-off page as zeros and would not notice a file short by a few bytes.
    std::string truncation() const;

private:
    explicit SqliteDb(sqlite3* db) : db_(db) {}
    sqlite3* db_;
};

// A prepared statement. step() returns true for each row; after the last row ok() tells
// whether the scan ended cleanly or on an error (message in error()).
class SqliteStmt {
public:
    SqliteStmt(const SqliteDb& db, const std::string& sql);
    ~SqliteStmt();
    SqliteStmt(const SqliteStmt&) = delete;
    SqliteStmt& operator=(const SqliteStmt&) = delete;

    bool prepared() const { return stmt_ != nullptr; }
    bool step();
    bool ok() const { return ok_; }
    const std::string& error() const { return error_; }
    void bind(int index, int64_t value) { sqlite3_bind_int64(stmt_, index, value); }

    bool isNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
    int64_t i64(int col) const { return sqlite3_column_int64(stmt_, col); }
    double real(int col) const { return sqlite3_column_double(stmt_, col); }
    std::string_view text(int col) const;
    // The text, or nullopt for NULL: one call where isNull() then text() take three.
    std::optional<std::string_view> textOrNull(int col) const;
    // A BLOB's bytes, or nullopt for NULL.
    std::optional<std::span<const uint8_t>> blobOrNull(int col) const;
    // The integer, or nullopt for NULL; asks for the type only when the value reads as 0.
    std::optional<int64_t> i64OrNull(int col) const {
        const int64_t v = sqlite3_column_int64(stmt_, col);
        if (v == 0 && isNull(col)) return std::nullopt;
        return v;
    }

private:
    sqlite3_stmt* stmt_ = nullptr;
    const SqliteDb& db_;
    bool ok_ = true;
    std::string error_;
};

// Builds "SELECT a, b, NULL, ... FROM table" reading columns by name: a wanted column the
// table lacks is read as NULL. Returns nullopt when a column listed in `required` is absent.
std::optional<std::string> selectByName(const SqliteDb& db, std::string_view table,
                                        const std::vector<std::string>& wanted,
                                        const std::vector<std::string>& required, std::string* missing = nullptr);

}  // namespace lanescope
