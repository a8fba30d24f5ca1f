#pragma once
#include <QObject>
#include <QString>
#include <memory>
#include <stop_token>

#include "importers/Importer.h"

namespace lanescope {

// Imports one file on a worker thread (QtConcurrent). progress() and finished() arrive on
// the GUI thread; cancel() asks the importer to stop and finished() then reports Cancelled.
class ImportTask : public QObject {
    Q_OBJECT
public:
    explicit ImportTask(QString path, QObject* parent = nullptr);
    void start();
    void cancel() { stop_.request_stop(); }
    const QString& path() const { return path_; }

signals:
    void progress(const QString& stage, int percent);  // percent -1: unknown
    void finished(std::shared_ptr<const lanescope::Report> report, const QString& error, bool cancelled);

private:
    QString path_;
    std::stop_source stop_;
};

}  // namespace lanescope
