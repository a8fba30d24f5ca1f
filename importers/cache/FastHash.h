#pragma once
#include <cstddef>
#include <cstdint>

namespace lanescope {

// A fast 64-bit non-cryptographic hash: the XXH64 algorithm. Four independent lanes each take
// one 8-byte word of every 32-byte stripe, so a core runs them side by side (docs/report-cache.md
// gives its speed). The report cache uses it for the checksum of a model file and the key of a
// report's file; never for anything that must resist an attacker. Bytes are read as
// little-endian words on a little-endian machine (the only kind Lanescope is built for).
class FastHash {
public:
    explicit FastHash(uint64_t seed = 0);
    // Adds bytes; any split of the same bytes over calls gives the same digest.
    void update(const void* data, size_t bytes);
    // The hash of every byte added so far; more may be added afterwards.
    uint64_t digest() const;

private:
    void stripes(const unsigned char* data, size_t count);

    uint64_t seed_;
    uint64_t lanes_[4];
    uint64_t total_ = 0;              // bytes added so far
    unsigned char pending_[32] = {};  // the start of a stripe not complete yet
    size_t pendingBytes_ = 0;
};

// The hash of one block of bytes.
uint64_t fastHash(const void* data, size_t bytes, uint64_t seed = 0);

}  // namespace lanescope
