#pragma once
#include <cstdint>

namespace lanescope::bench {

// Deterministic pseudo-random numbers (SplitMix64). Unlike the std:: distributions, the same
// seed gives the same sequence with every standard library, so a synthetic report is the same
// file everywhere.
class Rng {
public:
    explicit Rng(uint64_t seed) : state_(seed) {}

    uint64_t next() {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // A uniform integer in [lo, hi] (lo <= hi); the modulo bias is negligible for our ranges.
    int64_t between(int64_t lo, int64_t hi) {
        return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
    }

private:
    uint64_t state_;
};

}  // namespace lanescope::bench
