#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/IdIndex.h"

namespace lanescope {

// Interns strings once per report. Ids are dense, in order of first insertion,
// starting at 0; id 0 is always the empty string. Characters live in fixed blocks
// that never move, so views returned by str() stay valid for the pool's lifetime.
//
// A report with a string table of its own (Nsight Systems: the file's string table, the
// export's StringIds) adopts it first (adoptTable), so that its ids are the table's: table
// string k >= 1 is id k, repeats kept (the table's "" is the empty string once more), and
// table string 0 ("[Unknown]"), whose id 0 stays the empty string, is id tableSize()
// (tableZeroAlias(), even where it repeats an earlier string). The strings Lanescope adds come after. exportId() gives
// the table's id of an id, the number StringIds lists.
class StringPool {
public:
    StringPool();
    StringPool(StringPool&&) noexcept = default;
    StringPool& operator=(StringPool&&) noexcept = default;

    uint32_t intern(std::string_view text);
    std::string_view str(uint32_t id) const { return views_[id]; }
    uint32_t size() const { return static_cast<uint32_t>(views_.size()); }
    // Returns the id of `text` when it is interned, otherwise UINT32_MAX.
    uint32_t find(std::string_view text) const;
    // Makes the report's own string table (at least one string) ids 0..n-1 as above; the pool
    // must hold only the empty string. With an empty table the pool has no table.
    template <typename Text>
    void adoptTable(const std::vector<Text>& table) {
        if (table.empty()) return;
        for (size_t k = 1; k < table.size(); ++k) append(table[k]);
        tableSize_ = static_cast<uint32_t>(table.size());
        tableZero_ = size();
        append(table[0]);
    }
    // How many strings the report's own table holds (StringIds' rows: ids 0..tableSize()-1),
    // 0 when it has none (every string is listed then, by its id).
    uint32_t tableSize() const { return tableSize_; }
    // The id of the table's string 0 (its id is 0 in the table); 0 without a table.
    uint32_t tableZeroAlias() const { return tableZero_; }
    // The table's id of an id: the id itself but for the table's string 0.
    uint32_t exportId(uint32_t id) const { return tableSize_ != 0 && id == tableZero_ ? 0 : id; }
    // The text of table id `id` (< tableSize(), or < size() without a table).
    std::string_view exportStr(uint32_t id) const { return views_[tableSize_ != 0 && id == 0 ? tableZero_ : id]; }
    size_t memoryBytes() const;

private:
    std::string_view store(std::string_view text);
    // Adds `text` as the next id even when it is interned already (find() keeps the first).
    void append(std::string_view text);

    static constexpr size_t kFirstBlockBytes = 4 * 1024;
    static constexpr size_t kBlockBytes = 64 * 1024;
    std::vector<std::unique_ptr<char[]>> blocks_;
    size_t blockUsed_ = 0;
    size_t blockCapacity_ = 0;
    size_t allocatedBytes_ = 0;
    std::vector<std::string_view> views_;
    IdIndex ids_;             // each text's first id, by hashText
    uint32_t tableSize_ = 0;  // the adopted table's size, 0 for none
    uint32_t tableZero_ = 0;  // the id of its string 0
};

}  // namespace lanescope
