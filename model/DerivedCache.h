#pragma once
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <typeindex>

namespace lanescope {

// Data derived from a frozen report on first use and kept with it (the correlation index,
// NVTX ranges projected onto the GPU, ...), one object per type. Thread-safe: the first caller
// of a type computes it; callers racing on the same type may each compute it, and the first
// stored wins. Objects live as long as the report. A copied or moved report starts empty,
// since what was derived may point into the old one.
class DerivedCache {
public:
    DerivedCache() = default;
    DerivedCache(const DerivedCache&) {}
    DerivedCache(DerivedCache&&) noexcept {}
    DerivedCache& operator=(const DerivedCache&) { return clear(); }
    DerivedCache& operator=(DerivedCache&&) noexcept { return clear(); }

    template <typename T, typename Make>
    const T& get(Make&& make) const {
        const std::type_index key(typeid(T));
        {
            std::lock_guard lock(mutex_);
            if (auto it = items_.find(key); it != items_.end()) return *static_cast<const T*>(it->second.get());
        }
        auto made = std::make_shared<const T>(make());  // outside the lock: may take long
        std::lock_guard lock(mutex_);
        auto [it, inserted] = items_.try_emplace(key, std::move(made));
        return *static_cast<const T*>(it->second.get());
    }

private:
    DerivedCache& clear() {
        std::lock_guard lock(mutex_);
        items_.clear();
        return *this;
    }
    mutable std::mutex mutex_;
    mutable std::map<std::type_index, std::shared_ptr<const void>> items_;
};

}  // namespace lanescope
