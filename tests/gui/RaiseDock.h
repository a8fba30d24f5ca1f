#pragma once
#include <QCoreApplication>
#include <QDockWidget>
#include <QWidget>

// Brings the dock that holds `panel` to the front of its tab group, as a click on its tab does:
// a panel behind another tab computes nothing until it is shown (app/gui/WhenShown.h).
inline void raiseDockOf(QWidget* panel) {
    for (QWidget* w = panel; w; w = w->parentWidget())
        if (auto* dock = qobject_cast<QDockWidget*>(w)) {
            dock->show();
            dock->raise();
            break;
        }
    QCoreApplication::processEvents();
}
