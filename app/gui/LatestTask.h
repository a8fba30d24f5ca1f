#pragma once
#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>
#include <utility>

#include "app/gui/WorkPool.h"

namespace lanescope {

// "Run this off the GUI thread, keep only the latest result", for a panel that recomputes
// whenever its inputs change. Each run() supersedes the runs before it: their results are
// dropped when they arrive (a QtConcurrent computation cannot be stopped, so it runs to its
// end, holding what it captured). `done` runs on the GUI thread, with the owner as context, so
// it never runs after the owner is gone. A member of the owning widget:
//
//     LatestTask<Table> task_{this};
//     task_.run([report] { return compute(*report); }, [this](Table t) { show(std::move(t)); });
template <typename T>
class LatestTask {
public:
    explicit LatestTask(QObject* owner) : owner_(owner) {}
    LatestTask(const LatestTask&) = delete;
    LatestTask& operator=(const LatestTask&) = delete;

    template <typename Work, typename Done>
    void run(Work work, Done done) {
        const int generation = ++generation_;
        ++pending_;
        auto* watcher = new QFutureWatcher<T>(owner_);
        QObject::connect(watcher, &QFutureWatcher<T>::finished, owner_,
                         [this, watcher, generation, done = std::move(done)]() mutable {
                             --pending_;
                             watcher->deleteLater();
                             if (generation != generation_) return;  // a newer run is under way
                             done(watcher->future().takeResult());
                         });
        watcher->setFuture(QtConcurrent::run(workPool(), std::move(work)));
    }

    // Drops the result of every run under way (for an owner that answers at once instead).
    void cancel() { ++generation_; }
    // Runs started and not finished yet, superseded ones included.
    bool busy() const { return pending_ > 0; }
    // Changes with every run() and cancel(): work staged over several turns of the event loop
    // after `done` checks it to know it is still the latest.
    int generation() const { return generation_; }

private:
    QObject* owner_;
    int generation_ = 0;
    int pending_ = 0;
};

}  // namespace lanescope
