#pragma once
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace lanescope {

// A 32-bit hash of a text, for IdIndex: 8 bytes at a time, each step a multiply and a shift,
// so a name of a few words costs a few cycles (std::hash's is several times slower on them).
// The last 1 to 8 bytes are read as whole words that may overlap the ones before, never byte
// by byte into a word (which stalls the word's load).
inline uint32_t hashText(std::string_view text) {
    const char* p = text.data();
    const size_t size = text.size();
    auto load = [](const char* at, auto word) {
        std::memcpy(&word, at, sizeof(word));
        return uint64_t{word};
    };
    uint64_t h = 0x9E3779B97F4A7C15ull ^ size;
    auto mix = [&h](uint64_t word) {
        h = (h ^ word) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    };
    size_t n = size;
    for (; n > 8; p += 8, n -= 8) mix(load(p, uint64_t{}));
    if (size >= 8)
        mix(load(text.data() + size - 8, uint64_t{}));
    else if (size >= 4)
        mix(load(p, uint32_t{}) | load(p + size - 4, uint32_t{}) << 32);
    else if (size > 0)
        mix(uint64_t{uint8_t(p[0])} | uint64_t{uint8_t(p[size / 2])} << 8 | uint64_t{uint8_t(p[size - 1])} << 16);
    h *= 0x94D049BB133111EBull;
    return static_cast<uint32_t>(h >> 32);
}

// An index from keys kept elsewhere (in a column, by id) to their ids: the caller hashes a key
// and says whether an id holds it. Open addressing with linear probing over a power-of-two
// table at most half full; each slot is 8 bytes, the key's hash in the high half (compared
// before the key) and id + 1 in the low half, 0 for an empty slot. Ids are below UINT32_MAX.
class IdIndex {
public:
    static constexpr uint32_t kAbsent = UINT32_MAX;

    // The id whose key `holdsKey(id)` says is the one hashed to `hash`, or kAbsent.
    template <typename HoldsKey>
    uint32_t find(uint32_t hash, HoldsKey&& holdsKey) const {
        if (slots_.empty()) return kAbsent;
        const size_t mask = slots_.size() - 1;
        for (size_t at = hash & mask;; at = (at + 1) & mask) {
            const uint64_t slot = slots_[at];
            if (slot == 0) return kAbsent;
            if (static_cast<uint32_t>(slot >> 32) == hash) {
                const auto id = static_cast<uint32_t>(slot) - 1;
                if (holdsKey(id)) return id;
            }
        }
    }
    // Adds `id` under `hash`; its key must not be in the index yet.
    void insert(uint32_t hash, uint32_t id) {
        if ((count_ + 1) * 2 > slots_.size()) grow();
        place(slots_, (uint64_t{hash} << 32) | (uint64_t{id} + 1));
        ++count_;
    }
    size_t size() const { return count_; }
    size_t memoryBytes() const { return slots_.capacity() * sizeof(uint64_t); }

private:
    static void place(std::vector<uint64_t>& table, uint64_t slot) {
        const size_t mask = table.size() - 1;
        size_t at = static_cast<uint32_t>(slot >> 32) & mask;
        while (table[at] != 0) at = (at + 1) & mask;
        table[at] = slot;
    }
    void grow() {
        std::vector<uint64_t> bigger(slots_.empty() ? 16 : slots_.size() * 2, 0);
        for (uint64_t slot : slots_)
            if (slot != 0) place(bigger, slot);
        slots_.swap(bigger);
    }

    std::vector<uint64_t> slots_;
    size_t count_ = 0;
};

}  // namespace lanescope
