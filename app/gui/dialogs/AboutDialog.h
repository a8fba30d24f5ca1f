#pragma once
#include <QList>
#include <QPair>
#include <QString>

class QWidget;

namespace lanescope {

// Name and version of each library Lanescope runs on: Qt (at run time), SQLite and zlib (at
// run time), Protobuf, simdjson and spdlog (as built).
QList<QPair<QString, QString>> libraryVersions();

// The About box's text: the app's version, what it is, the libraries and the log file.
QString aboutHtml();
void showAbout(QWidget* parent);

}  // namespace lanescope
