#include "app/gui/panels/ranks/RankSummaries.h"

#include <QCollator>
#include <QDir>
#include <QFileInfo>
#include <algorithm>
#include <filesystem>

#include "analysis/ranks/RankSummary.h"

namespace lanescope {
namespace {

bool isSummary(const QString& dir) { return isRankSummary(std::filesystem::path(dir.toStdString())); }

// The summary folders a path gives, absolute and canonical; "" in `error` when it gives some.
QStringList summaryFolders(const QString& path, QString& error) {
    const QFileInfo info(path);
    if (!info.isDir()) {
        error = path + ": not a folder";
        return {};
    }
    if (isSummary(path)) return {info.canonicalFilePath()};
    QStringList found;
    const QDir dir(path);
    QStringList names = dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QCollator byNumber;  // rank2 before rank10
    byNumber.setNumericMode(true);
    std::sort(names.begin(), names.end(), byNumber);
    for (const QString& name : names)
        if (isSummary(dir.filePath(name))) found << QFileInfo(dir.filePath(name)).canonicalFilePath();
    if (found.isEmpty())
        error =
            path + ": no rank summaries here (folders holding rank-summary.json, written by lanescope-cli summarize)";
    return found;
}

}  // namespace

QString findFullReport(const RankInput& summary, const QString& summaryDir) {
    const QString recorded = QString::fromStdString(summary.source_path);
    const QString name = QString::fromStdString(summary.file_name);
    const QDir dir(summaryDir);
    QStringList candidates;
    if (!recorded.isEmpty()) candidates << recorded;
    if (!name.isEmpty()) candidates << dir.filePath(name) << dir.filePath("../" + name);
    for (const QString& c : candidates)
        if (const QFileInfo file(c); file.isFile()) return file.canonicalFilePath();
    return {};
}

SummarySet readSummaryFolders(const QStringList& paths) {
    SummarySet set;
    for (const QString& path : paths) {
        QString error;
        const QStringList dirs = summaryFolders(path, error);
        if (!error.isEmpty()) set.errors << error;
        for (const QString& dir : dirs) {
            std::string why;
            std::optional<RankInput> in = readRankSummary(std::filesystem::path(dir.toStdString()), why);
            if (!in) {
                set.errors << QString::fromStdString(why);
                continue;
            }
            set.reports << findFullReport(*in, dir);
            set.dirs << dir;
            set.inputs.push_back(std::move(*in));
        }
    }
    return set;
}

}  // namespace lanescope
