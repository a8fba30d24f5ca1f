// JsonEventStream's events scanner with SSE2 (or one byte at a time), and the choice of it or
// the AVX2 one (EventScanAvx2.cpp).
#include "importers/kineto/EventScan.h"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lanescope::kineto {
namespace {

// 64 bytes of the document as bit masks: eq(c) has bit i set where byte i is `c`.
#if defined(__SSE2__)
struct Chunk {
    __m128i part[4];
    explicit Chunk(const char* p) {
        for (int k = 0; k < 4; ++k) part[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    }
    uint64_t eq(char c) const {
        const __m128i v = _mm_set1_epi8(c);
        uint64_t bits = 0;
        for (int k = 0; k < 4; ++k)
            bits |= uint64_t{static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(part[k], v)))} << (16 * k);
        return bits;
    }
    // Bytes that are `c` once ORed with 0x20: '{' finds '[' too, '}' finds ']'.
    uint64_t eqFolded(char c) const {
        const __m128i v = _mm_set1_epi8(c), fold = _mm_set1_epi8(0x20);
        uint64_t bits = 0;
        for (int k = 0; k < 4; ++k)
            bits |= uint64_t{static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_or_si128(part[k], fold), v)))}
                    << (16 * k);
        return bits;
    }
};
#else
struct Chunk {
    const char* p;
    explicit Chunk(const char* bytes) : p(bytes) {}
    uint64_t eq(char c) const {
        uint64_t bits = 0;
        for (int i = 0; i < 64; ++i) bits |= uint64_t{p[i] == c} << i;
        return bits;
    }
    uint64_t eqFolded(char c) const {
        uint64_t bits = 0;
        for (int i = 0; i < 64; ++i) bits |= uint64_t{(p[i] | 0x20) == c} << i;
        return bits;
    }
};
#endif

// Bit i set where an odd number of bits 0..i of x are set: with quotes, the bytes inside strings
// (the opening quote included, the closing one not).
inline uint64_t prefixXor(uint64_t x) {
    for (int shift = 1; shift < 64; shift *= 2) x ^= x << shift;
    return x;
}

// The bits set in x (without the POPCNT instruction, which x86-64's baseline lacks: the
// builtin would call libgcc).
inline int bitCount(uint64_t x) {
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return static_cast<int>((x * 0x0101010101010101ull) >> 56);
}

constexpr bool kCheapBitCount = false;

}  // namespace

#include "importers/kineto/EventScanLoop.inc"

size_t scanEventsPortable(EventScan& scan) { return scanLoop(scan); }

#if !defined(LANESCOPE_AVX2_SCAN)
size_t scanEventsAvx2(EventScan& scan) { return scanLoop(scan); }
bool haveAvx2Scan() { return false; }
#else
bool haveAvx2Scan() {
    static const bool have =
        __builtin_cpu_supports("avx2") && __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("popcnt");
    return have;
}
#endif

size_t scanEvents(EventScan& scan) {
    static const bool avx2 = haveAvx2Scan();
    return avx2 ? scanEventsAvx2(scan) : scanEventsPortable(scan);
}

}  // namespace lanescope::kineto
