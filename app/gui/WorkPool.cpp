#include "app/gui/WorkPool.h"

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

}  // namespace lanescope
