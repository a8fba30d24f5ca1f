#pragma once
#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace lanescope::bench {

// One value of an inserted row: NULL, an integer or a text (not copied: it must outlive the
// insert() call).
struct SqlValue {
    enum class Type { Null, Int, Text } type;
    int64_t integer = 0;
    std::string_view text;

    SqlValue(std::nullopt_t) : type(Type::Null) {}
    SqlValue(int64_t v) : type(Type::Int), integer(v) {}
    SqlValue(int v) : type(Type::Int), integer(v) {}
    SqlValue(const char* v) : type(Type::Text), text(v) {}
    SqlValue(const std::string& v) : type(Type::Text), text(v) {}
    template <typename T>
    SqlValue(const std::optional<T>& v) : SqlValue(v ? SqlValue(*v) : SqlValue(std::nullopt)) {}
};

// A new SQLite file opened for one fast bulk write: no journal, no fsync, everything inside
// one transaction that commit() ends. Errors throw std::runtime_error with SQLite's message.
class WritableDb {
public:
    // Creates `path`; the caller makes sure that nothing is there yet.
    explicit WritableDb(const std::filesystem::path& path);
    ~WritableDb();
    WritableDb(const WritableDb&) = delete;
    WritableDb& operator=(const WritableDb&) = delete;

    void exec(const char* sql);
    void commit();
    sqlite3* handle() const { return db_; }

private:
    sqlite3* db_ = nullptr;
};

// A prepared INSERT INTO table (columns...) VALUES (?, ...).
class InsertStmt {
public:
    InsertStmt(const WritableDb& db, std::string_view table, std::initializer_list<std::string_view> columns);
    ~InsertStmt();
    InsertStmt(const InsertStmt&) = delete;
    InsertStmt& operator=(const InsertStmt&) = delete;

    // Inserts one row: one value per column, in the constructor's column order.
    void insert(std::initializer_list<SqlValue> values);

private:
    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace lanescope::bench
