#include "app/gui/import/ImportTask.h"

#include <spdlog/spdlog.h>
#include <sys/resource.h>

#include <QMetaObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "analysis/NvtxProjection.h"
#include "app/gui/WorkPool.h"
#include "app/gui/import/SaveModel.h"
#include "app/log/ImportLog.h"
#include "importers/cache/KeptResults.h"
#include "timeline/DeferredLanes.h"
#include "timeline/ReportSummaries.h"

namespace lanescope {
namespace {

// Forwards importer progress to the GUI thread at most every 50 ms.
class QueuedProgress final : public ProgressSink {
public:
    explicit QueuedProgress(QPointer<ImportTask> task) : task_(std::move(task)) {}
    void progress(std::string_view stage, uint64_t done, uint64_t total) override {
        const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
        auto last = last_.load();
        if (now - last < 50'000'000 || !last_.compare_exchange_strong(last, now)) return;
        const int percent = total ? static_cast<int>(std::min<uint64_t>(100, done * 100 / total)) : -1;
        const QString text = QString::fromUtf8(stage.data(), static_cast<qsizetype>(stage.size()));
        QPointer<ImportTask> task = task_;
        QMetaObject::invokeMethod(
            task_.data(),
            [task, text, percent] {
                if (task) emit task->progress(text, percent);
            },
            Qt::QueuedConnection);
    }

private:
    QPointer<ImportTask> task_;
    std::atomic<int64_t> last_{0};
};

// The report saved under `key`, or nullptr; a dropped entry is logged. Read on `threads`
// threads; its rows go to `onSkeleton` before its events are read.
std::unique_ptr<Report> loadSaved(const ReportCache& cache, const std::string& key, const std::string& file,
                                  ProgressSink& progress, std::stop_token stop, unsigned threads,
                                  const std::function<void(std::shared_ptr<const Report>)>& onSkeleton) {
    progress.progress("reading the saved model", 0, 0);
    std::string why;
    std::unique_ptr<Report> report = cache.load(key, file, why, stop, threads, onSkeleton);
    if (!why.empty()) spdlog::warn("{}: {}; importing it again", file, why);
    return report;
}

}  // namespace

ImportTask::ImportTask(QString path, QString nsysPath, unsigned threads, QObject* parent)
    : QObject(parent), path_(std::move(path)), nsysPath_(std::move(nsysPath)), threads_(threads) {
    skeletonTimer_.setSingleShot(true);
    connect(&skeletonTimer_, &QTimer::timeout, this, [this] {
        if (pendingSkeleton_) offerSkeleton(std::exchange(pendingSkeleton_, nullptr));
    });
    connect(this, &ImportTask::finished, this, [this] {
        finished_ = true;
        skeletonTimer_.stop();
        pendingSkeleton_.reset();
    });
}

void ImportTask::offerSkeleton(std::shared_ptr<const Report> rows) {
    if (finished_) return;
    if (sinceSkeleton_.isValid() && sinceSkeleton_.elapsed() < kSkeletonIntervalMs) {
        pendingSkeleton_ = std::move(rows);
        if (!skeletonTimer_.isActive()) skeletonTimer_.start(int(kSkeletonIntervalMs - sinceSkeleton_.elapsed()));
        return;
    }
    sinceSkeleton_.start();
    emit skeleton(std::move(rows));
}

void ImportTask::start() {
    QPointer<ImportTask> self(this);
    const std::string file = path_.toStdString();
    const std::stop_token stop = stop_.get_token();
    ImportOptions options;
    options.nsys_path = nsysPath_.toStdString();
    options.nsys_reader = reader_;
    options.threads = threads_;
    options.memory_limit_bytes = memoryLimit_;
    options.memory_promised = memoryPromised_.get();
    // The "NVTX on GPU" rows, deferred: projected when first shown (MainWindow gives the timeline
    // their builder).
    const unsigned workers = threads_ ? threads_ : std::max(1u, std::thread::hardware_concurrency());
    options.add_view_lanes = [](Report& r) { addDeferredNvtxProjectionLanes(r); };
    // The rows known so far, to the GUI thread in order before finished() (both queued).
    options.on_skeleton = [self](std::shared_ptr<const Report> rows) {
        if (QObject* target = self.data())
            QMetaObject::invokeMethod(
                target,
                [self, rows] {
                    if (self) self->offerSkeleton(rows);
                },
                Qt::QueuedConnection);
    };
    // `promised` keeps what options.memory_promised points to alive while the import runs.
    // The viewer's model holds its NVTX-on-GPU lanes, deferred.
    const std::string variant = ReportCache::variant(reader_, options.nsys_path, true);
    (void)QtConcurrent::run(workPool(), [self, file, stop, options, promised = memoryPromised_, cache = cache_, variant,
                                         workers] {
        // Below the GUI thread's priority (Linux nice is per thread, and the importer's own
        // threads inherit it), so the window stays responsive while both cores import.
        ::setpriority(PRIO_PROCESS, 0, 10);
        QueuedProgress queued(self);
        logging::LoggedProgress progress(file, queued);
        std::optional<std::string> key;
        std::unique_ptr<Report> saved;
        if (cache) {
            progress.progress("checking for a saved model", 0, 0);
            key = cache->keyFor(file, variant, stop);
            // The rows show as soon as they are read, as an import's do.
            if (key) saved = loadSaved(*cache, *key, file, progress, stop, workers, options.on_skeleton);
        }
        const bool fromCache = saved != nullptr;
        ImportResult result = fromCache ? ImportResult(std::move(saved)) : importFile(file, options, progress, stop);
        logging::logImport(file, result, progress);
        if (fromCache) spdlog::info("{}: opened from its saved model ({})", file, cache->entryPath(*key).string());
        std::shared_ptr<const Report> report;
        std::shared_ptr<const CorrelationIndex> correlation;
        QString error;
        bool cancelled = false;
        if (result.ok()) {
            report = std::move(result.report());
            // What panels compute from the whole report is kept beside its saved model.
            if (key) KeptResults::attach(*report, cache, *key);
            using Clock = std::chrono::steady_clock;
            const auto seconds = [](Clock::time_point from, Clock::time_point to) {
                return std::chrono::duration<double>(to - from).count();
            };
            const auto start = Clock::now();
            // Built now, off the GUI thread, and kept with the report (sharing its lifetime).
            correlation = std::shared_ptr<const CorrelationIndex>(report, &correlationIndex(*report, workers));
            const auto indexed = Clock::now();
            // And the event counts the window shows (a walk over every event: 80 ms at 50 M).
            (void)finishedCounts(*report);
            const auto counted = Clock::now();
            // The timeline's drawing summaries too, so that the first wide view needs none built.
            ReportSummaries::of(*report).buildAll(workers);
            spdlog::info(
                "{}: made ready for the window: correlation index {:.2f} s, event counts {:.2f} s, "
                "drawing summaries {:.2f} s",
                file, seconds(start, indexed), seconds(indexed, counted), seconds(counted, Clock::now()));
        } else {
            cancelled = result.error().kind == ImportError::Kind::Cancelled;
            error = QString::fromStdString(result.error().message);
        }
        // A model imported now is saved once the window has drawn it (below); with none to save,
        // the lanes the window builds are kept beside the saved model as they come.
        const bool saving = report && key && !fromCache;
        if (report && !saving) DeferredLanes::of(*report).settle();
        // Set on the GUI thread once the window has taken the report.
        const auto handedOver = std::make_shared<std::atomic<bool>>(false);
        if (self)
            QMetaObject::invokeMethod(
                self.data(),
                [self, report, correlation, error, cancelled, fromCache, handedOver] {
                    if (self) emit self->finished(report, correlation, error, cancelled, fromCache);
                    *handedOver = true;
                },
                Qt::QueuedConnection);
        // Saved for the next time (still below the GUI's priority) once the window has the
        // report: writing a model of a GB beside the window's own small writes (its settings,
        // the recent files) made those wait on the disk for up to 100 ms at 50 M events. At
        // most 10 s: a window closed meanwhile never sets it. Then once the window has drawn it
        // and built the NVTX-on-GPU rows it showed, which the model then holds (at most 60 s:
        // a window that never draws it).
        if (saving) {
            for (int waited = 0; !*handedOver && waited < 1000; ++waited)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            const DeferredLanes& deferred = DeferredLanes::of(*report);
            for (int waited = 0; *handedOver && !deferred.settled() && waited < 6000; ++waited)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            deferred.settle();  // lanes built from now on are kept beside the model
            std::string storeError;
            if (saveModel(*cache, *report, *key, storeError))
                spdlog::info("{}: saved its model for reopening ({})", file, cache->entryPath(*key).string());
            else
                spdlog::warn("{}: {}", file, storeError);
        }
    });
}

}  // namespace lanescope
