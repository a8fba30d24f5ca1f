#include "model/StringPool.h"

#include <algorithm>
#include <cstring>

namespace lanescope {

StringPool::StringPool() { intern(""); }

std::string_view StringPool::store(std::string_view text) {
    if (text.empty()) return {};
    if (blockUsed_ + text.size() > blockCapacity_) {
        // Blocks grow from 4 KiB to 64 KiB so small reports stay small.
        blockCapacity_ = std::max(std::clamp(allocatedBytes_, kFirstBlockBytes, kBlockBytes), text.size());
        blocks_.push_back(std::make_unique<char[]>(blockCapacity_));
        allocatedBytes_ += blockCapacity_;
        blockUsed_ = 0;
    }
    char* dst = blocks_.back().get() + blockUsed_;
    std::memcpy(dst, text.data(), text.size());
    blockUsed_ += text.size();
    return {dst, text.size()};
}

uint32_t StringPool::intern(std::string_view text) {
    if (auto it = ids_.find(text); it != ids_.end()) return it->second;
    const auto id = static_cast<uint32_t>(views_.size());
    append(text);
    return id;
}

void StringPool::append(std::string_view text) {
    const auto id = static_cast<uint32_t>(views_.size());
    const std::string_view stored = store(text);
    views_.push_back(stored);
    ids_.emplace(stored, id);
}

uint32_t StringPool::find(std::string_view text) const {
    auto it = ids_.find(text);
    return it == ids_.end() ? UINT32_MAX : it->second;
}

size_t StringPool::memoryBytes() const {
    // Blocks, the view table, and the hash index (node + bucket per entry).
    const size_t hashBytes =
        ids_.size() * (sizeof(std::string_view) + sizeof(uint32_t) + 16) + ids_.bucket_count() * sizeof(void*);
    return allocatedBytes_ + views_.capacity() * sizeof(std::string_view) + hashBytes;
}

}  // namespace lanescope
