#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lanescope {

// Interns strings once per report. Ids are dense, in order of first insertion,
// starting at 0; id 0 is always the empty string. Characters live in fixed blocks
// that never move, so views returned by str() stay valid for the pool's lifetime.
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
    size_t memoryBytes() const;

private:
    std::string_view store(std::string_view text);

    static constexpr size_t kFirstBlockBytes = 4 * 1024;
    static constexpr size_t kBlockBytes = 64 * 1024;
    std::vector<std::unique_ptr<char[]>> blocks_;
    size_t blockUsed_ = 0;
    size_t blockCapacity_ = 0;
    size_t allocatedBytes_ = 0;
    std::vector<std::string_view> views_;
    std::unordered_map<std::string_view, uint32_t> ids_;
};

}  // namespace lanescope
