#include "app/gui/SampleReport.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace lanescope {

QString sampleReportPath() {
    const QString installed = QCoreApplication::applicationDirPath() + "/../share/lanescope/train_1gpu.sqlite";
    for (const QString& candidate : {installed, QStringLiteral(LANESCOPE_SOURCE_SAMPLE)})
        if (QFileInfo(candidate).isFile()) return QFileInfo(candidate).canonicalFilePath();
    return {};
}

}  // namespace lanescope
