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
    const uint32_t hash = hashText(text);
    const uint32_t found = ids_.find(hash, [&](uint32_t id) { return views_[id] == text; });
    if (found != IdIndex::kAbsent) return found;
    const auto id = static_cast<uint32_t>(views_.size());
    views_.push_back(store(text));
    ids_.insert(hash, id);
    return id;
}

void StringPool::append(std::string_view text) {
    const auto id = static_cast<uint32_t>(views_.size());
    const uint32_t hash = hashText(text);
    const bool known = ids_.find(hash, [&](uint32_t other) { return views_[other] == text; }) != IdIndex::kAbsent;
    views_.push_back(store(text));
    if (!known) ids_.insert(hash, id);
}

uint32_t StringPool::find(std::string_view text) const {
    const uint32_t found = ids_.find(hashText(text), [&](uint32_t id) { return views_[id] == text; });
    return found == IdIndex::kAbsent ? UINT32_MAX : found;
}

size_t StringPool::memoryBytes() const {
    return allocatedBytes_ + views_.capacity() * sizeof(std::string_view) + ids_.memoryBytes();
}

}  // namespace lanescope
