#pragma once
#include <atomic>
#include <mutex>

namespace lanescope::sql {

// A value a table computes from the report on first use (an index, a numbering), on whichever
// thread asks first; every later get() is a plain load, as the accessors that need it run for
// every row of a scan.
template <typename T>
class BuiltOnce {
public:
    template <typename Make>
    const T& get(Make&& make) const {
        if (!ready_.load(std::memory_order_acquire))
            std::call_once(once_, [&] {
                value_ = make();
                ready_.store(true, std::memory_order_release);
            });
        return value_;
    }

private:
    mutable std::once_flag once_;
    mutable std::atomic<bool> ready_{false};
    mutable T value_{};
};

}  // namespace lanescope::sql
