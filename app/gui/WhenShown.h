#pragma once
#include <QDockWidget>
#include <QEvent>
#include <QObject>
#include <QPointer>
#include <QWidget>
#include <functional>
#include <utility>

namespace lanescope {

// Whether a panel is on screen: visible, and not behind another dock's tab (whose panels Qt
// keeps visible, with an empty visible region).
inline bool onScreen(const QWidget* panel) { return panel->isVisible() && !panel->visibleRegion().isEmpty(); }

// Runs a panel's computation only while the panel is shown (its dock open and its tab in
// front): a request while it is hidden is remembered, and runs once when it is next shown.
// Panels behind other tabs so cost nothing while the user opens reports, selects and zooms.
//
// A dock behind another dock's tab stays visible to Qt (isVisible() is true, no Hide event;
// only its visible region is empty), so in a dock the panel follows the dock's
// visibilityChanged, which Qt emits when the dock is shown, hidden, or its tab comes to the
// front or goes behind another; outside a dock, its own Show events.
class WhenShown : public QObject {
public:
    WhenShown(QWidget* panel, std::function<void()> compute) : panel_(panel), compute_(std::move(compute)) {
        panel_->installEventFilter(this);
        followDock();
    }
    // Computes now when the panel is shown, else when it is next shown.
    void request() {
        pending_ = !shown();
        if (!pending_) compute_();
    }
    // A request waits for the panel to be shown.
    bool pending() const { return pending_; }
    // The panel is on screen: visible, and in front of its dock's tab group when in a dock.
    bool shown() const { return panel_->isVisible() && (!dock_ || dockShown_); }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched != panel_) return false;
        if (event->type() == QEvent::ParentChange) followDock();
        if (event->type() == QEvent::Show && !dock_) computePending();
        return false;
    }

private:
    // Follows the nearest dock widget above the panel, if any (a panel is put in its dock
    // after it is made).
    void followDock() {
        QDockWidget* dock = nullptr;
        for (QWidget* w = panel_->parentWidget(); w && !dock; w = w->parentWidget())
            dock = qobject_cast<QDockWidget*>(w);
        if (dock == dock_) return;
        if (dock_) disconnect(dock_, &QDockWidget::visibilityChanged, this, nullptr);
        dock_ = dock;
        dockShown_ = dock_ && dock_->isVisible() && !dock_->visibleRegion().isEmpty();
        if (dock_)
            connect(dock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
                dockShown_ = visible;
                if (visible) computePending();
            });
    }
    void computePending() {
        if (!pending_ || !shown()) return;
        pending_ = false;
        compute_();
    }

    QWidget* panel_;
    std::function<void()> compute_;
    QPointer<QDockWidget> dock_;
    bool dockShown_ = false;  // the dock's last visibilityChanged
    bool pending_ = false;
};

}  // namespace lanescope
