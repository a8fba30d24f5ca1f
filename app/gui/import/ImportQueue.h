#pragma once
#include <QObject>
#include <QString>
#include <QStringList>
#include <atomic>
#include <memory>
#include <vector>

#include "importers/Importer.h"
#include "importers/cache/ReportCache.h"
#include "model/Correlation.h"
#include "model/Report.h"

namespace lanescope {

class ImportTask;

// Opens files several at a time (the ranks of one job): one import per core, each with its
// share of the cores, and hands the reports over in the order they were asked for, each as
// soon as it and those before it are done. Meanwhile each file's rows as its importer knows
// them (skeletonReady), a few a second. Signals arrive on the GUI thread; `id` tells the files
// apart (the same file may be asked for twice), ascending in the order asked for.
class ImportQueue : public QObject {
    Q_OBJECT
public:
    explicit ImportQueue(QObject* parent = nullptr);
    // Queues files; those added while others import join the same run.
    // memoryLimitBytes: what the reports opened together may take (0: what the machine has free).
    void add(const QStringList& paths, const QString& nsysPath, NsysReader reader = NsysReader::Native,
             uint64_t memoryLimitBytes = 0);
    // Where finished models are kept for reopening (nullptr: nowhere); for the files started after.
    void setCache(std::shared_ptr<const ReportCache> cache) { cache_ = std::move(cache); }
    void cancel();  // every running and queued import
    bool busy() const { return !slots_.empty(); }

signals:
    // "Opening a.sqlite: reading GPU kernels" or "Opening 8 files (3 done)"; percent -1: unknown.
    void progress(const QString& text, int percent);
    // The rows of a file still importing (ImportOptions::on_skeleton); none after its
    // reportReady or failed.
    void skeletonReady(uint64_t id, std::shared_ptr<const lanescope::Report> rows);
    // fromSavedModel: read from the cache rather than imported.
    void reportReady(uint64_t id, std::shared_ptr<const lanescope::Report> report,
                     std::shared_ptr<const lanescope::CorrelationIndex> correlation, const QString& path,
                     bool fromSavedModel);
    void failed(uint64_t id, const QString& path, const QString& error, bool cancelled);
    void idle(bool allOpened);  // everything asked for is done

private:
    // One requested file, in request order.
    struct Slot {
        uint64_t id = 0;  // unique: the same file may be asked for twice
        QString path;
        QString nsysPath;
        NsysReader reader = NsysReader::Native;
        ImportTask* task = nullptr;  // while it imports
        bool started = false, done = false;
        int percent = 0;
        QString stage;
        std::shared_ptr<const Report> report;
        std::shared_ptr<const CorrelationIndex> correlation;
        QString error;
        bool cancelled = false;
        bool fromSavedModel = false;
    };
    void launch();
    void deliver();
    void showProgress();

    std::vector<Slot> slots_;
    // The files of one run share the memory available when it began (reports stay open): the
    // estimate of each one let in is added to memoryPromised_ (ImportOptions::memory_promised).
    uint64_t memoryLimit_ = 0;
    std::shared_ptr<std::atomic<uint64_t>> memoryPromised_;
    std::shared_ptr<const ReportCache> cache_;
    size_t delivered_ = 0;
    uint64_t nextId_ = 0;
    bool allOpened_ = true;
};

}  // namespace lanescope
