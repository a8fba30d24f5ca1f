// Help > About Lanescope (AboutDialog.h).
#include "app/gui/dialogs/AboutDialog.h"

#include <google/protobuf/stubs/common.h>
#include <simdjson.h>
#include <spdlog/version.h>
#include <sqlite3.h>
#include <zlib.h>

#include <QMessageBox>

#include "app/log/Logging.h"

#define LANESCOPE_STRINGIFY2(x) #x
#define LANESCOPE_STRINGIFY(x) LANESCOPE_STRINGIFY2(x)

namespace lanescope {

QList<QPair<QString, QString>> libraryVersions() {
    constexpr int protobuf = GOOGLE_PROTOBUF_VERSION;  // major * 1000000 + minor * 1000 + patch
    return {
        {"Qt", QString("%1 (built with %2)").arg(qVersion(), QT_VERSION_STR)},
        {"SQLite", sqlite3_libversion()},
        {"Protobuf", QString("%1.%2.%3").arg(protobuf / 1000000).arg(protobuf / 1000 % 1000).arg(protobuf % 1000)},
        {"simdjson", LANESCOPE_STRINGIFY(SIMDJSON_VERSION)},
        {"zlib", zlibVersion()},
        {"spdlog", QString("%1.%2.%3").arg(SPDLOG_VER_MAJOR).arg(SPDLOG_VER_MINOR).arg(SPDLOG_VER_PATCH)},
    };
}

QString aboutHtml() {
    QString rows;
    for (const auto& [name, version] : libraryVersions())
        rows +=
            QString("<tr><td style='padding-right:16px'>%1</td><td>%2</td></tr>").arg(name, version.toHtmlEscaped());
    return QString(
               "<h3>Lanescope %1</h3>"
               "<p>A fast timeline viewer for GPU and CPU profiler reports: Nsight Systems, "
               "PyTorch profiler and Perfetto traces.</p>"
               "<p><b>Libraries</b></p><table>%2</table>"
               "<p>Log file: <code>%3</code></p>")
        .arg(LANESCOPE_VERSION, rows, QString::fromStdString(logging::logFilePath().string()).toHtmlEscaped());
}

void showAbout(QWidget* parent) { QMessageBox::about(parent, "About Lanescope", aboutHtml()); }

}  // namespace lanescope
