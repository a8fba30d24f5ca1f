#include "app/python/ImportFraction.h"

#include <algorithm>

namespace lanescope::python {

void ImportFraction::progress(std::string_view stage, uint64_t done, uint64_t total) {
    std::lock_guard lock(mutex_);
    if (stage != stage_) {  // the stage before is over: the next takes a third of what is left
        stage_ = stage;
        stageStart_ += stageShare_;
        stageShare_ = (1.0 - stageStart_) / 3.0;
    }
    const double within = total > 0 ? std::min(1.0, static_cast<double>(done) / static_cast<double>(total)) : 0.0;
    const double now = stageStart_ + stageShare_ * within;
    if (now > fraction_.load(std::memory_order_relaxed)) fraction_.store(now, std::memory_order_relaxed);
}

}  // namespace lanescope::python
