#pragma once
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>
#include <atomic>
#include <memory>
#include <stop_token>
#include <string>

#include "importers/Importer.h"
#include "importers/cache/ReportCache.h"
#include "model/Correlation.h"

namespace lanescope {

// Imports one file on a worker thread (QtConcurrent), or reads its saved model when the cache
// has one. progress(), skeleton() and finished() arrive on the GUI thread; cancel() asks the
// importer to stop and finished() then reports Cancelled.
class ImportTask : public QObject {
    Q_OBJECT
public:
    // nsysPath: the user's configured nsys (empty: look it up); threads: the importer's own
    // threads (0: all cores).
    ImportTask(QString path, QString nsysPath, unsigned threads = 0, QObject* parent = nullptr);
    // How an .nsys-rep is read: natively (the default) or through nsys export.
    void setNsysReader(NsysReader reader) { reader_ = reader; }
    // Opened with other files: `limit` bytes shared by them all, `promised` what the others took.
    void shareMemory(uint64_t limit, std::shared_ptr<std::atomic<uint64_t>> promised) {
        memoryLimit_ = limit;
        memoryPromised_ = std::move(promised);
    }
    // Where finished models are kept (nullptr: nowhere). A file met before opens from its saved
    // model instead of importing; one imported is saved after finished() went out.
    void setCache(std::shared_ptr<const ReportCache> cache) { cache_ = std::move(cache); }
    void start();
    void cancel() { stop_.request_stop(); }
    const QString& path() const { return path_; }

signals:
    void progress(const QString& stage, int percent);  // percent -1: unknown
    // The rows the importer knows so far (ImportOptions::on_skeleton), at most one per
    // kSkeletonIntervalMs (the latest; one that came later than that waits the rest of it), none
    // after finished().
    void skeleton(std::shared_ptr<const lanescope::Report> rows);
    // On success also the report's correlation index, built on the worker thread too, and
    // whether the report came from its saved model rather than an import.
    void finished(std::shared_ptr<const lanescope::Report> report,
                  std::shared_ptr<const lanescope::CorrelationIndex> correlation, const QString& error, bool cancelled,
                  bool fromSavedModel);

private:
    static constexpr int kSkeletonIntervalMs = 250;
    void offerSkeleton(std::shared_ptr<const Report> rows);

    QString path_;
    QString nsysPath_;
    unsigned threads_;
    NsysReader reader_ = NsysReader::Native;
    uint64_t memoryLimit_ = 0;
    std::shared_ptr<std::atomic<uint64_t>> memoryPromised_;
    std::shared_ptr<const ReportCache> cache_;
    std::stop_source stop_;
    std::shared_ptr<const Report> pendingSkeleton_;  // the latest, until its turn comes
    QElapsedTimer sinceSkeleton_;                    // since the last skeleton() went out
    QTimer skeletonTimer_;                           // single shot: when the pending one goes out
    bool finished_ = false;
};

}  // namespace lanescope
