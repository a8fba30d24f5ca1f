#pragma once
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <stop_token>

#include "importers/Importer.h"
#include "model/Correlation.h"

namespace lanescope {

// Imports one file on a worker thread (QtConcurrent). progress() and finished() arrive on
// the GUI thread; cancel() asks the importer to stop and finished() then reports Cancelled.
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
    void start();
    void cancel() { stop_.request_stop(); }
    const QString& path() const { return path_; }

signals:
    void progress(const QString& stage, int percent);  // percent -1: unknown
    // On success also the report's correlation index, built on the worker thread too.
    void finished(std::shared_ptr<const lanescope::Report> report,
                  std::shared_ptr<const lanescope::CorrelationIndex> correlation, const QString& error, bool cancelled);

private:
    QString path_;
    QString nsysPath_;
    unsigned threads_;
    NsysReader reader_ = NsysReader::Native;
    uint64_t memoryLimit_ = 0;
    std::shared_ptr<std::atomic<uint64_t>> memoryPromised_;
    std::stop_source stop_;
};

}  // namespace lanescope
