#include "importers/SqliteDb.h"

#include <algorithm>
#include <new>

namespace lanescope {
namespace {

// file: URI with every byte outside the unreserved set percent-encoded.
std::string fileUri(const std::filesystem::path& path) {
    static const char* hex = "0123456789ABCDEF";
    std::string uri = "file:";
    for (unsigned char c : std::filesystem::absolute(path).string()) {
        if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
            uri += static_cast<char>(c);
        } else {
            uri += '%';
            uri += hex[c >> 4];
            uri += hex[c & 15];
        }
    }
    return uri + "?mode=ro&immutable=1";
}

// SQLite running out of memory is not a damaged table: it ends the import the way a failed
// allocation of ours does (importFile turns it into "ran out of memory while opening it").
void throwIfOutOfMemory(int rc) {
    if ((rc & 0xff) == SQLITE_NOMEM) throw std::bad_alloc();
}

}  // namespace

std::unique_ptr<SqliteDb> SqliteDb::openReadOnly(const std::filesystem::path& path, std::string& error) {
    sqlite3* db = nullptr;
    const int flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(fileUri(path).c_str(), &db, flags, nullptr) != SQLITE_OK) {
        error = db ? sqlite3_errmsg(db) : "out of memory";
        sqlite3_close(db);
        return nullptr;
    }
    // Keep SQLite's page cache small (about 2 MiB): the scans read each page once.
    sqlite3_exec(db, "PRAGMA cache_size=-2048", nullptr, nullptr, nullptr);
    return std::unique_ptr<SqliteDb>(new SqliteDb(db));
}

SqliteDb::~SqliteDb() { sqlite3_close(db_); }

std::string SqliteDb::truncation() const {
    SqliteStmt pages(*this, "PRAGMA page_count");
    SqliteStmt pageSize(*this, "PRAGMA page_size");
    if (!pages.step() || !pageSize.step()) return {};
    const auto expected = static_cast<uintmax_t>(pages.i64(0)) * static_cast<uintmax_t>(pageSize.i64(0));
    std::error_code ec;
    const auto actual = std::filesystem::file_size(sqlite3_db_filename(db_, "main"), ec);
    if (ec || actual >= expected) return {};
    return "truncated (" + std::to_string(actual) + " bytes of " + std::to_string(expected) + ")";
}

bool SqliteDb::hasTable(std::string_view table) const {
    SqliteStmt stmt(
        *this, "SELECT 1 FROM sqlite_master WHERE type IN ('table','view') AND name = '" + std::string(table) + "'");
    return stmt.prepared() && stmt.step();
}

std::vector<std::string> SqliteDb::tablesStartingWith(std::string_view prefix) const {
    std::vector<std::string> names;
    SqliteStmt stmt(*this, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    while (stmt.prepared() && stmt.step()) {
        std::string name(stmt.text(0));
        if (name.starts_with(prefix)) names.push_back(std::move(name));
    }
    return names;
}

std::vector<std::string> SqliteDb::columns(std::string_view table) const {
    std::vector<std::string> names;
    SqliteStmt stmt(*this, "PRAGMA table_info(\"" + std::string(table) + "\")");
    while (stmt.prepared() && stmt.step()) names.emplace_back(stmt.text(1));
    return names;
}

SqliteStmt::SqliteStmt(const SqliteDb& db, const std::string& sql) : db_(db) {
    if (const int rc = sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &stmt_, nullptr); rc != SQLITE_OK) {
        throwIfOutOfMemory(rc);  // stmt_ is null when preparing fails
        ok_ = false;
        error_ = db.lastError();
    }
}

SqliteStmt::~SqliteStmt() { sqlite3_finalize(stmt_); }

bool SqliteStmt::step() {
    if (!stmt_) return false;
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) {
        throwIfOutOfMemory(rc);
        ok_ = false;
        error_ = db_.lastError();
    }
    return false;
}

std::string_view SqliteStmt::text(int col) const {
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
    if (!data) return {};
    return {data, static_cast<size_t>(sqlite3_column_bytes(stmt_, col))};
}

std::optional<std::string_view> SqliteStmt::textOrNull(int col) const {
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
    if (!data) return std::nullopt;
    return std::string_view{data, static_cast<size_t>(sqlite3_column_bytes(stmt_, col))};
}

std::optional<std::span<const uint8_t>> SqliteStmt::blobOrNull(int col) const {
    const auto* data = static_cast<const uint8_t*>(sqlite3_column_blob(stmt_, col));
    const auto size = static_cast<size_t>(sqlite3_column_bytes(stmt_, col));
    if (!data) return isNull(col) ? std::nullopt : std::optional<std::span<const uint8_t>>(std::span<const uint8_t>());
    return std::span<const uint8_t>(data, size);
}

std::optional<std::string> selectByName(const SqliteDb& db, std::string_view table,
                                        const std::vector<std::string>& wanted,
                                        const std::vector<std::string>& required, std::string* missing) {
    const auto present = db.columns(table);
    auto has = [&](const std::string& c) { return std::find(present.begin(), present.end(), c) != present.end(); };
    for (const auto& c : required) {
        if (!has(c)) {
            if (missing) *missing = c;
            return std::nullopt;
        }
    }
    std::string sql = "SELECT ";
    for (size_t i = 0; i < wanted.size(); ++i) {
        if (i) sql += ", ";
        sql += has(wanted[i]) ? "\"" + wanted[i] + "\"" : "NULL";
    }
    return sql + " FROM \"" + std::string(table) + "\"";
}

}  // namespace lanescope
