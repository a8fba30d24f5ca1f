// JsonEventStream's events scanner with AVX2, PCLMULQDQ and POPCNT: this file alone is
// compiled for them (importers/CMakeLists.txt); it runs only where the processor has them
// (haveAvx2Scan).
#include <immintrin.h>

#include <algorithm>
#include <cstring>

#include "importers/kineto/EventScan.h"

namespace lanescope::kineto {
namespace {

// 64 bytes of the document as bit masks, 32 bytes at a time.
struct Chunk {
    __m256i part[2];
    explicit Chunk(const char* p) {
        for (int k = 0; k < 2; ++k) part[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32 * k));
    }
    uint64_t eq(char c) const {
        const __m256i v = _mm256_set1_epi8(c);
        return uint64_t{static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(part[0], v)))} |
               uint64_t{static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(part[1], v)))} << 32;
    }
    uint64_t eqFolded(char c) const {
        const __m256i v = _mm256_set1_epi8(c), fold = _mm256_set1_epi8(0x20);
        return uint64_t{
                   static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_or_si256(part[0], fold), v)))} |
               uint64_t{
                   static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_or_si256(part[1], fold), v)))}
                   << 32;
    }
};

// A carry-less multiplication by all ones: bit i is the XOR of bits 0..i.
inline uint64_t prefixXor(uint64_t x) {
    const __m128i all = _mm_set1_epi8(static_cast<char>(0xFF));
    return static_cast<uint64_t>(
        _mm_cvtsi128_si64(_mm_clmulepi64_si128(_mm_set_epi64x(0, static_cast<int64_t>(x)), all, 0)));
}

inline int bitCount(uint64_t x) { return __builtin_popcountll(x); }

constexpr bool kCheapBitCount = true;

}  // namespace

#include "importers/kineto/EventScanLoop.inc"

size_t scanEventsAvx2(EventScan& scan) { return scanLoop(scan); }

}  // namespace lanescope::kineto
