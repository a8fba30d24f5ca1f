#include "importers/cache/KeptResults.h"

#include <cstdint>
#include <cstring>
#include <string>

namespace lanescope {
namespace {

// A result larger than ReportCache::kMaxResultBytes is kept in parts "<name>_part<i>", and under
// `name` itself this index, as its bytes.
struct PartsIndex {
    char tag[8] = {'L', 'S', 'P', 'A', 'R', 'T', 'S', '1'};
    uint64_t parts = 0;
    uint64_t total = 0;  // bytes of all parts together
};

std::string partName(std::string_view name, uint64_t part) {
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
    PartsIndex index;
    if (!bytes || bytes->size() != sizeof index || !bytes->starts_with(std::string_view(index.tag, sizeof index.tag)))
        return bytes;
    std::memcpy(&index, bytes->data(), sizeof index);
    std::string whole;
    for (uint64_t part = 0; part < index.parts; ++part) {
        const std::optional<std::string> piece = cache_->loadResult(key_, partName(name, part));
        if (!piece || whole.size() + piece->size() > index.total) return std::nullopt;  // a part lost or not this one's
        if (part == 0) whole.reserve(index.total);
        whole += *piece;
    }
    if (whole.size() != index.total) return std::nullopt;
    return whole;
}

bool KeptResults::store(std::string_view name, std::string_view bytes, std::string& error) const {
    error.clear();
    if (!cache_) return false;
    if (bytes.size() <= ReportCache::kMaxResultBytes) return cache_->storeResult(key_, name, bytes, error);
    // The parts first, the index last: a reader finds the index only once every part is there.
    const uint64_t partBytes = ReportCache::kMaxResultBytes;
    PartsIndex index;
    index.parts = (bytes.size() + partBytes - 1) / partBytes;
    index.total = bytes.size();
    for (uint64_t part = 0; part < index.parts; ++part)
        if (!cache_->storeResult(key_, partName(name, part), bytes.substr(part * partBytes, partBytes), error))
            return false;
    std::string indexBytes(sizeof index, '\0');
    std::memcpy(indexBytes.data(), &index, sizeof index);
    return cache_->storeResult(key_, name, indexBytes, error);
}

}  // namespace lanescope
