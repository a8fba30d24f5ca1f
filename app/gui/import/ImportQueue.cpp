#include "app/gui/import/ImportQueue.h"

#include <QFileInfo>
#include <algorithm>
#include <thread>

#include "app/gui/import/ImportStageText.h"
#include "app/gui/import/ImportTask.h"
#include "importers/MemoryEstimate.h"

namespace lanescope {
namespace {

unsigned cores() { return std::max(1u, std::thread::hardware_concurrency()); }

}  // namespace

ImportQueue::ImportQueue(QObject* parent) : QObject(parent) {}

void ImportQueue::add(const QStringList& paths, const QString& nsysPath, NsysReader reader, uint64_t memoryLimitBytes) {
    if (slots_.empty()) {  // a new run
        ImportOptions limit;
        limit.memory_limit_bytes = memoryLimitBytes;
        memoryLimit_ = availableMemory(limit);
        memoryPromised_ = std::make_shared<std::atomic<uint64_t>>(0);
    }
    for (const QString& path : paths) {
        Slot& s = slots_.emplace_back();
        s.id = ++nextId_;
        s.path = path;
        s.nsysPath = nsysPath;
        s.reader = reader;
    }
    launch();
    showProgress();
}

void ImportQueue::cancel() {
    for (Slot& s : slots_) {
        if (s.task) s.task->cancel();
        if (!s.started) {  // never started: done as cancelled
            s.started = s.done = s.cancelled = true;
            s.error = "import cancelled";
        }
    }
    deliver();
}

void ImportQueue::launch() {
    size_t running = 0, waiting = 0;
    for (const Slot& s : slots_) {
        running += s.started && !s.done;
        waiting += !s.started;
    }
    const size_t workers = std::min<size_t>(cores(), running + waiting);
    const unsigned threadsEach = std::max(1u, cores() / unsigned(std::max<size_t>(1, workers)));
    for (size_t i = 0; i < slots_.size() && running < workers; ++i) {
        Slot& s = slots_[i];
        if (s.started) continue;
        s.started = true;
        ++running;
        s.task = new ImportTask(s.path, s.nsysPath, threadsEach, this);
        s.task->setNsysReader(s.reader);
        s.task->shareMemory(memoryLimit_, memoryPromised_);
        s.task->setCache(cache_);
        auto slotOf = [this, id = s.id]() -> Slot* {  // slots_ may have grown: find it again
            for (Slot& x : slots_)
                if (x.id == id) return &x;
            return nullptr;
        };
        connect(s.task, &ImportTask::progress, this, [this, slotOf](const QString& stage, int percent) {
            if (Slot* x = slotOf()) {
                x->stage = stage;
                x->percent = percent;
                showProgress();
            }
        });
        connect(s.task, &ImportTask::skeleton, this, [this, slotOf](std::shared_ptr<const Report> rows) {
            if (Slot* x = slotOf(); x && !x->done) emit skeletonReady(x->id, std::move(rows));
        });
        connect(
            s.task, &ImportTask::finished, this,
            [this, slotOf](std::shared_ptr<const Report> report, std::shared_ptr<const CorrelationIndex> correlation,
                           const QString& error, bool cancelled, bool fromSavedModel) {
                Slot* x = slotOf();
                if (!x || x->done) return;
                x->task->deleteLater();
                x->task = nullptr;
                x->done = true;
                x->report = std::move(report);
                x->correlation = std::move(correlation);
                x->error = error;
                x->cancelled = cancelled;
                x->fromSavedModel = fromSavedModel;
                launch();
                deliver();
            });
        s.task->start();
    }
}

void ImportQueue::deliver() {
    while (delivered_ < slots_.size() && slots_[delivered_].done) {
        Slot& s = slots_[delivered_++];
        if (s.report) {
            emit reportReady(s.id, std::move(s.report), std::move(s.correlation), s.path, s.fromSavedModel);
        } else {
            allOpened_ = false;
            emit failed(s.id, s.path, s.error, s.cancelled);
        }
    }
    if (!slots_.empty() && delivered_ == slots_.size()) {
        const bool ok = allOpened_;
        slots_.clear();
        delivered_ = 0;
        allOpened_ = true;
        emit idle(ok);
    } else {
        showProgress();
    }
}

void ImportQueue::showProgress() {
    if (slots_.empty()) return;
    if (slots_.size() == 1) {
        const Slot& s = slots_.front();
        const QString stage = importStageText(s.stage);
        emit progress(QString("Opening %1").arg(QFileInfo(s.path).fileName()) + (stage.isEmpty() ? "" : ": " + stage),
                      s.percent);
        return;
    }
    int done = 0, sum = 0;
    for (const Slot& s : slots_) {
        done += s.done;
        sum += s.done ? 100 : std::max(0, s.percent);
    }
    emit progress(QString("Opening %1 files (%2 done)").arg(slots_.size()).arg(done), sum / int(slots_.size()));
}

}  // namespace lanescope
