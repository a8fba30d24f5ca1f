#include "importers/cache/KeptResults.h"

namespace lanescope {

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
    return cache_->loadResult(key_, name);
}

bool KeptResults::store(std::string_view name, std::string_view bytes, std::string& error) const {
    error.clear();
    return cache_ && cache_->storeResult(key_, name, bytes, error);
}

}  // namespace lanescope
