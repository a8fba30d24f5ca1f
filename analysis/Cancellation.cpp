#include "analysis/Cancellation.h"

#include <utility>

namespace lanescope {
namespace {

thread_local CancelFlag current;

}  // namespace

CancelScope::CancelScope(CancelFlag flag) : previous_(std::exchange(current, std::move(flag))) {}

CancelScope::~CancelScope() { current = std::move(previous_); }

CancelFlag currentCancelFlag() { return current; }

void cancellationPoint() {
    if (current && current->load(std::memory_order_relaxed)) throw Cancelled{};
}

}  // namespace lanescope
