#pragma once
#include <QString>

namespace lanescope {

// An importer's progress stage (ProgressSink) in words for the window: the Nsight Systems
// tables by what they hold ("CUPTI_ACTIVITY_KIND_KERNEL" -> "reading GPU kernels"), any
// other table as "reading TABLE", the rest as given.
QString importStageText(const QString& stage);

}  // namespace lanescope
