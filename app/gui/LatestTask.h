#pragma once
#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>
#include <atomic>
#include <memory>
#include <optional>
#include <utility>

#include "analysis/Cancellation.h"
#include "app/gui/WorkPool.h"

namespace lanescope {

// "Run this off the GUI thread, keep only the latest result", for a panel that recomputes
// whenever its inputs change. Each run() supersedes the runs before it: their results are
// dropped when they arrive, and their computations are asked to stop (Cancelled, thrown at
// their next cancellationPoint(); one that has none runs to its end, holding what it
// captured). The owner's destruction stops the run under way the same way, so closing a
// window does not wait for a long computation. `done` runs on the GUI thread, with the owner
// as context, so it never runs after the owner is gone. A member of the owning widget:
//
//     LatestTask<Table> task_{this};
//     task_.run([report] { return compute(*report); }, [this](Table t) { show(std::move(t)); });
template <typename T>
class LatestTask {
public:
    explicit LatestTask(QObject* owner) : owner_(owner) {}
    ~LatestTask() { stopRunning(); }
    LatestTask(const LatestTask&) = delete;
    LatestTask& operator=(const LatestTask&) = delete;

    template <typename Work, typename Done>
    void run(Work work, Done done) {
        stopRunning();
        const int generation = ++generation_;
        ++pending_;
        running_ = std::make_shared<std::atomic<bool>>(false);
        auto* watcher = new QFutureWatcher<std::optional<T>>(owner_);
        QObject::connect(watcher, &QFutureWatcher<std::optional<T>>::finished, owner_,
                         [this, watcher, generation, done = std::move(done)]() mutable {
                             --pending_;
                             watcher->deleteLater();
                             if (generation != generation_) return;  // a newer run is under way
                             std::optional<T> result = watcher->future().takeResult();
                             if (result) done(std::move(*result));
                         });
        watcher->setFuture(
            QtConcurrent::run(workPool(), [work = std::move(work), flag = running_]() mutable -> std::optional<T> {
                belowTheGuiThread();
                try {
                    const CancelScope scope(flag);
                    return work();
                } catch (const Cancelled&) {
                    return std::nullopt;
                }
            }));
    }

    // Drops the result of every run under way and stops it (for an owner that answers at once
    // instead).
    void cancel() {
        ++generation_;
        stopRunning();
    }
    // Runs started and not finished yet, superseded ones included.
    bool busy() const { return pending_ > 0; }
    // Changes with every run() and cancel(): work staged over several turns of the event loop
    // after `done` checks it to know it is still the latest.
    int generation() const { return generation_; }

private:
    void stopRunning() {
        if (running_) running_->store(true);
        running_.reset();
    }

    QObject* owner_;
    int generation_ = 0;
    int pending_ = 0;
    CancelFlag running_;  // of the latest run; set when it is superseded or abandoned
};

}  // namespace lanescope
