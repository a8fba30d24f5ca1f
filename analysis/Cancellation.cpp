#include "analysis/Cancellation.h"

#include <algorithm>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace lanescope {
namespace {

thread_local CancelFlag current;
std::atomic<std::thread::id> watchedThread{};
std::atomic<uint64_t> slicesOnWatched{0}, slicesElsewhere{0};

}  // namespace

CancelScope::CancelScope(CancelFlag flag) : previous_(std::exchange(current, std::move(flag))) {}

CancelScope::~CancelScope() { current = std::move(previous_); }

CancelFlag currentCancelFlag() { return current; }

void watchHeavyWork(std::thread::id watched) {
    watchedThread = watched;
    slicesOnWatched = 0;
    slicesElsewhere = 0;
}

HeavyWorkSlices heavyWorkSlices() { return {slicesOnWatched.load(), slicesElsewhere.load()}; }

void cancellationPoint() {
    (std::this_thread::get_id() == watchedThread.load(std::memory_order_relaxed) ? slicesOnWatched : slicesElsewhere)
        .fetch_add(1, std::memory_order_relaxed);
    if (current && current->load(std::memory_order_relaxed)) throw Cancelled{};
}

void runOnThreads(unsigned threads, const std::function<void()>& work) {
    const CancelFlag flag = currentCancelFlag();
    std::exception_ptr failure;
    std::mutex failureMutex;
    auto guarded = [&] {
        try {
            const CancelScope scope(flag);
            work();
        } catch (...) {
            const std::lock_guard lock(failureMutex);
            if (!failure) failure = std::current_exception();
        }
    };
    {
        std::vector<std::jthread> pool;
        for (unsigned t = 1; t < std::max(1u, threads); ++t) pool.emplace_back(guarded);
        guarded();
    }
    if (failure) std::rethrow_exception(failure);
}

}  // namespace lanescope
