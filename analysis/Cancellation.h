#pragma once
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <thread>

namespace lanescope {

// Cooperative cancellation of long computations (statistics, projections, gaps): whoever runs
// one on a worker thread installs a CancelScope holding a flag, and the computation calls
// cancellationPoint() now and then (every 64 Ki events in the loops over events), which
// throws Cancelled once the flag is set. A superseded or abandoned computation so stops within
// milliseconds instead of running to its end. Without a scope cancellationPoint() never throws.
struct Cancelled : std::exception {
    const char* what() const noexcept override { return "cancelled"; }
};
using CancelFlag = std::shared_ptr<std::atomic<bool>>;

// Makes `flag` this thread's cancellation flag until the scope ends (scopes nest).
class CancelScope {
public:
    explicit CancelScope(CancelFlag flag);
    ~CancelScope();
    CancelScope(const CancelScope&) = delete;
    CancelScope& operator=(const CancelScope&) = delete;

private:
    CancelFlag previous_;
};

// This thread's flag (null without a scope), for the worker threads a computation starts.
CancelFlag currentCancelFlag();
// Throws Cancelled when this thread's flag is set.
void cancellationPoint();

// The slices of heavy work done since watchHeavyWork(): each cancellationPoint() is one (64 Ki
// events of a loop over events), counted on the watched thread and on all others. The GUI's
// stall test watches the GUI thread and asserts that no slice ran there.
struct HeavyWorkSlices {
    uint64_t on_watched = 0;
    uint64_t elsewhere = 0;
};
void watchHeavyWork(std::thread::id watched);  // and sets both counts to 0
HeavyWorkSlices heavyWorkSlices();

// Runs work() on `threads` threads (this one among them), each under this thread's flag; the
// first exception a thread throws (Cancelled among them) is rethrown here once all are done.
void runOnThreads(unsigned threads, const std::function<void()>& work);

}  // namespace lanescope
