#include "app/gui/WorkPool.h"

#include <sys/resource.h>

#include <QCoreApplication>

namespace lanescope {

QThreadPool* workPool() {
    // Parented to the application: destroyed (after waiting for its work) as it ends.
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool(QCoreApplication::instance());
        p->setObjectName("lanescope-work");
        p->setMaxThreadCount(QThread::idealThreadCount());
        return p;
    }();
    return pool;
}

void belowTheGuiThread() {
    // Nice 5; a thread already nicer (an import's, at 10) stays so: raising it back needs privileges.
    if (::getpriority(PRIO_PROCESS, 0) < 5) ::setpriority(PRIO_PROCESS, 0, 5);
}

}  // namespace lanescope
