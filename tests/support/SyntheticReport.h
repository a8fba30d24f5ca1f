#pragma once
#include <cstdint>
#include <filesystem>

namespace lanescope::bench {

// Rows written per event table of a synthetic report; total() counts interval events, what
// the importer turns into slices (NVTX domain-creation rows are not events).
struct SyntheticCounts {
    uint64_t nvtx = 0, cuda_api = 0, kernels = 0, memcpy = 0, memset = 0, osrt = 0;
    uint64_t total() const { return nvtx + cuda_api + kernels + memcpy + memset + osrt; }
};

// Writes a synthetic Nsight Systems 2025.3 SQLite export with exactly `events` interval events
// to `path`, where nothing may exist yet: a two-rank data-parallel training job (see
// TrainingWorkload), stepped until the next step would not fit, then topped up with OS runtime
// calls. The same arguments always give the same file; another `seed` gives other durations
// (the ranks of a bigger job). Throws std::runtime_error when SQLite fails.
inline constexpr uint64_t kSyntheticSeed = 20250302;
SyntheticCounts writeSyntheticReport(const std::filesystem::path& path, uint64_t events,
                                     uint64_t seed = kSyntheticSeed);

}  // namespace lanescope::bench
