#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace lanescope::cache {

// The threads a load uses for `threads` (0: every core), at least one.
inline unsigned loadThreads(unsigned threads) {
    return threads ? threads : std::max(1u, std::thread::hardware_concurrency());
}

// Runs work(worker, i) for every i in [0, count) on up to `threads` threads (0: every core),
// this one among them as worker 0, the others 1, 2, ... below loadThreads(threads); each takes
// the next i not taken: give the larger items the smaller i. The first exception a thread
// throws is rethrown here once all are done (the items not begun by then are skipped).
template <typename Work>
void onThreads(unsigned threads, size_t count, Work&& work) {
    std::atomic<size_t> next{0};
    std::exception_ptr thrown;
    std::mutex thrownMutex;
    const auto run = [&](size_t worker) {
        try {
            for (size_t i; (i = next.fetch_add(1)) < count;) work(worker, i);
        } catch (...) {
            const std::lock_guard lock(thrownMutex);
            if (!thrown) thrown = std::current_exception();
            next = count;
        }
    };
    const size_t helpers = std::min<size_t>(loadThreads(threads), std::max<size_t>(count, 1)) - 1;
    {
        std::vector<std::jthread> pool;
        pool.reserve(helpers);
        for (size_t t = 1; t <= helpers; ++t) pool.emplace_back(run, t);
        run(0);
    }
    if (thrown) std::rethrow_exception(thrown);
}

}  // namespace lanescope::cache
