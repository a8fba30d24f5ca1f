#pragma once
#include <QIcon>

namespace lanescope {

// The application icon from resources/lanescope.qrc: the PNG sizes 16 to 256 drawn for the
// hicolor theme, so the window, the task bar and the About box match the installed icon.
QIcon applicationIcon();

}  // namespace lanescope
