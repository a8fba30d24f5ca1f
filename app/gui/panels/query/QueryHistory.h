#pragma once
#include <QString>
#include <QStringList>

namespace lanescope {

// The queries run in the Query panel, kept across sessions in QSettings ("query/history"):
// newest first, each text once (a query run again moves to the front), kMaxQueries at most.
class QueryHistory {
public:
    static constexpr int kMaxQueries = 50;
    static QStringList queries();
    static void add(const QString& sql);  // blanks around it are dropped; an empty one is not kept
    static void clear();
};

}  // namespace lanescope
