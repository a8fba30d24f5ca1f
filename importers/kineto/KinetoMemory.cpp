// The memory estimate of a Chrome-trace JSON: events counted in its first bytes.
#include <string.h>

#include <cmath>
#include <memory>

#include "importers/MemoryEstimate.h"
#include "importers/kineto/BlockReader.h"
#include "importers/kineto/KinetoImporter.h"

namespace lanescope {
namespace {

// The sample: the first bytes of the (inflated) content, in which events are counted.
constexpr size_t kSampleBytes = 1u << 20;

}  // namespace

// Each event has one "ph" key: the sample's count of them, scaled by the file's size over the
// bytes of the file the sample came from (compressed bytes for gzip).
MemoryEstimate KinetoImporter::estimateMemory(const std::filesystem::path& path) const {
    kineto::BlockReader reader;
    if (!reader.open(path)) return estimateFromEvents(path, 0);
    const auto sample = std::make_unique_for_overwrite<char[]>(kSampleBytes);
    size_t filled = 0;
    while (filled < kSampleBytes) {
        const auto got = reader.read(sample.get() + filled, kSampleBytes - filled);
        if (!got || *got == 0) break;
        filled += *got;
    }
    uint64_t inSample = 0;
    const char* const end = sample.get() + filled;
    for (const char* at = sample.get(); (at = static_cast<const char*>(memmem(at, size_t(end - at), "\"ph\"", 4)));
         at += 4)
        ++inSample;
    const uint64_t used = reader.contentSourceBytes();
    if (filled < kSampleBytes || used == 0 || used >= reader.fileSize()) return estimateFromEvents(path, inSample);
    const double scale = static_cast<double>(reader.fileSize()) / static_cast<double>(used);
    return estimateFromEvents(
        path, static_cast<uint64_t>(std::ceil(static_cast<double>(std::max<uint64_t>(inSample, 1)) * scale)));
}

}  // namespace lanescope
