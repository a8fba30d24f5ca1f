#pragma once
#include <QThreadPool>

namespace lanescope {

// The threads that run the viewer's own work off the GUI thread: imports, the panels'
// computations (LatestTask), exports. Not Qt's global pool: Qt's raster paint engine hands
// parts of large fills and lines to the global pool and waits for them on the GUI thread, so a
// statistics report of several seconds queued there froze painting for that long. As many
// threads as cores; created on first use, waited for when the application ends.
QThreadPool* workPool();

// Puts the calling worker thread below the GUI thread's priority (Linux nice is per thread),
// so that drawing and input come first while both cores compute. Each panel's computation
// calls it first (LatestTask); the import sets a lower one still.
void belowTheGuiThread();

}  // namespace lanescope
