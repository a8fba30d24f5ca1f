// The window icon (AppIcon.h).
#include "app/gui/AppIcon.h"

// Q_INIT_RESOURCE must be used outside a namespace; the resource lives in a static library,
// so it is registered explicitly rather than by a static initializer the linker may drop.
static void initIconResource() { Q_INIT_RESOURCE(lanescope); }

namespace lanescope {

QIcon applicationIcon() {
    initIconResource();
    QIcon icon;
    for (int size : {16, 22, 24, 32, 48, 64, 128, 256})
        icon.addFile(QString(":/icons/lanescope-%1.png").arg(size), QSize(size, size));
    return icon;
}

}  // namespace lanescope
