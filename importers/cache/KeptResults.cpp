#include "importers/cache/KeptResults.h"

#include <cstdint>
#include <cstring>

namespace lanescope {
namespace {

// A result larger than ReportCache::kMaxResultBytes is kept in parts "<name>_part<i>", and under
// `name` itself this index: the tag, the part count (uint32) and the total size (uint64).
constexpr std::string_view kPartsTag = "LSPARTS1";
constexpr size_t kIndexBytes = kPartsTag.size() + sizeof(uint32_t) + sizeof(uint64_t);

std::string partName(std::string_view name, uint32_t part) {
    return std::string(name) + "_part" + std::to_string(part);
}

}  // namespace

void KeptResults::attach(const Report& report, std::shared_ptr<const ReportCache> cache, std::string key) {
    (void)report.derived.get<KeptResults>([&] {
        KeptResults place;
        place.cache_ = std::move(cache);
        place.key_ = std::move(key);
        return place;
    });
}

const KeptResults& KeptResults::of(const Report& report) {
    return report.derived.get<KeptResults>([] { return KeptResults{}; });
}

std::optional<std::string> KeptResults::load(std::string_view name) const {
    if (!cache_) return std::nullopt;
    std::optional<std::string> bytes = cache_->loadResult(key_, name);
    if (!bytes || bytes->size() != kIndexBytes || !bytes->starts_with(kPartsTag)) return bytes;
    uint32_t parts = 0;
    uint64_t total = 0;
    std::memcpy(&parts, bytes->data() + kPartsTag.size(), sizeof parts);
    std::memcpy(&total, bytes->data() + kPartsTag.size() + sizeof parts, sizeof total);
    std::string whole;
    for (uint32_t part = 0; part < parts; ++part) {
        const std::optional<std::string> piece = cache_->loadResult(key_, partName(name, part));
        if (!piece || whole.size() + piece->size() > total) return std::nullopt;  // a part lost or not this one's
        if (part == 0) whole.reserve(total);
        whole += *piece;
    }
    if (whole.size() != total) return std::nullopt;
    return whole;
}

bool KeptResults::store(std::string_view name, std::string_view bytes, std::string& error) const {
    error.clear();
    if (!cache_) return false;
    if (bytes.size() <= ReportCache::kMaxResultBytes) return cache_->storeResult(key_, name, bytes, error);
    // The parts first, the index last: a reader finds the index only once every part is there.
    const uint64_t partBytes = ReportCache::kMaxResultBytes;
    const auto parts = uint32_t((bytes.size() + partBytes - 1) / partBytes);
    for (uint32_t part = 0; part < parts; ++part)
        if (!cache_->storeResult(key_, partName(name, part), bytes.substr(part * partBytes, partBytes), error))
            return false;
    std::string index(kPartsTag);
    const uint64_t total = bytes.size();
    index.append(reinterpret_cast<const char*>(&parts), sizeof parts);
    index.append(reinterpret_cast<const char*>(&total), sizeof total);
    return cache_->storeResult(key_, name, index, error);
}

}  // namespace lanescope
