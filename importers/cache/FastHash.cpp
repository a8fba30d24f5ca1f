#include "importers/cache/FastHash.h"

#include <bit>
#include <cstring>

namespace lanescope {
namespace {

static_assert(std::endian::native == std::endian::little, "FastHash reads little-endian words");

constexpr uint64_t kPrime1 = 0x9E3779B185EBCA87ull;
constexpr uint64_t kPrime2 = 0xC2B2AE3D27D4EB4Full;
constexpr uint64_t kPrime3 = 0x165667B19E3779F9ull;
constexpr uint64_t kPrime4 = 0x85EBCA77C2B2AE63ull;
constexpr uint64_t kPrime5 = 0x27D4EB2F165667C5ull;
constexpr size_t kStripe = 32;

uint64_t word64(const unsigned char* p) {
    uint64_t w;
    std::memcpy(&w, p, sizeof w);
    return w;
}
uint32_t word32(const unsigned char* p) {
    uint32_t w;
    std::memcpy(&w, p, sizeof w);
    return w;
}
uint64_t round(uint64_t lane, uint64_t word) { return std::rotl(lane + word * kPrime2, 31) * kPrime1; }
uint64_t mergeLane(uint64_t hash, uint64_t lane) { return (hash ^ round(0, lane)) * kPrime1 + kPrime4; }

}  // namespace

FastHash::FastHash(uint64_t seed)
    : seed_(seed), lanes_{seed + kPrime1 + kPrime2, seed + kPrime2, seed, seed - kPrime1} {}

void FastHash::stripes(const unsigned char* data, size_t count) {
    uint64_t a = lanes_[0], b = lanes_[1], c = lanes_[2], d = lanes_[3];
    for (const unsigned char* end = data + count * kStripe; data != end; data += kStripe) {
        a = round(a, word64(data));
        b = round(b, word64(data + 8));
        c = round(c, word64(data + 16));
        d = round(d, word64(data + 24));
    }
    lanes_[0] = a, lanes_[1] = b, lanes_[2] = c, lanes_[3] = d;
}

void FastHash::update(const void* data, size_t bytes) {
    auto p = static_cast<const unsigned char*>(data);
    total_ += bytes;
    if (pendingBytes_ + bytes < kStripe) {
        if (bytes) std::memcpy(pending_ + pendingBytes_, p, bytes);
        pendingBytes_ += bytes;
        return;
    }
    if (pendingBytes_) {
        const size_t fill = kStripe - pendingBytes_;
        std::memcpy(pending_ + pendingBytes_, p, fill);
        stripes(pending_, 1);
        p += fill, bytes -= fill, pendingBytes_ = 0;
    }
    stripes(p, bytes / kStripe);
    pendingBytes_ = bytes % kStripe;
    if (pendingBytes_) std::memcpy(pending_, p + bytes - pendingBytes_, pendingBytes_);
}

uint64_t FastHash::digest() const {
    uint64_t h = kPrime5 + seed_;
    if (total_ >= kStripe) {
        h = std::rotl(lanes_[0], 1) + std::rotl(lanes_[1], 7) + std::rotl(lanes_[2], 12) + std::rotl(lanes_[3], 18);
        for (const uint64_t lane : lanes_) h = mergeLane(h, lane);
    }
    h += total_;
    const unsigned char* p = pending_;
    size_t left = pendingBytes_;
    for (; left >= 8; p += 8, left -= 8) h = std::rotl(h ^ round(0, word64(p)), 27) * kPrime1 + kPrime4;
    if (left >= 4) {
        h = std::rotl(h ^ (uint64_t{word32(p)} * kPrime1), 23) * kPrime2 + kPrime3;
        p += 4, left -= 4;
    }
    for (; left > 0; ++p, --left) h = std::rotl(h ^ (*p * kPrime5), 11) * kPrime1;
    h ^= h >> 33;
    h *= kPrime2;
    h ^= h >> 29;
    h *= kPrime3;
    h ^= h >> 32;
    return h;
}

uint64_t fastHash(const void* data, size_t bytes, uint64_t seed) {
    FastHash hash(seed);
    hash.update(data, bytes);
    return hash.digest();
}

}  // namespace lanescope
