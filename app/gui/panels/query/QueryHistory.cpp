#include "app/gui/panels/query/QueryHistory.h"

#include <QSettings>

namespace lanescope {
namespace {

const char* const kKey = "query/history";

}  // namespace

QStringList QueryHistory::queries() { return QSettings().value(kKey).toStringList(); }

void QueryHistory::add(const QString& sql) {
    const QString text = sql.trimmed();
    if (text.isEmpty()) return;
    QStringList list = queries();
    list.removeAll(text);
    list.prepend(text);
    while (list.size() > kMaxQueries) list.removeLast();
    QSettings().setValue(kKey, list);
}

void QueryHistory::clear() { QSettings().remove(kKey); }

}  // namespace lanescope
