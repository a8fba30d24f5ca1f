#pragma once
#include <QString>

namespace lanescope {

// The bundled sample report: installed under <prefix>/share/lanescope, or in the source
// tree's resources/ when running from a build folder. Empty when neither exists.
QString sampleReportPath();

}  // namespace lanescope
