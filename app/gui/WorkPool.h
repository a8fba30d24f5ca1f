#pragma once
#include <QThreadPool>

namespace lanescope {

// The threads that run the viewer's own work off the GUI thread: imports, the panels'
// computations (LatestTask), exports. Not Qt's global pool: Qt's raster paint engine hands
// parts of large fills and lines to the global pool and waits for them on the GUI thread, so a
// statistics report of several seconds queued there froze painting for that long. As many
// threads as cores; created on first use, waited for when the application ends.
QThreadPool* workPool();

}  // namespace lanescope
