#pragma once
#include <QEvent>
#include <QObject>
#include <QWidget>
#include <functional>
#include <utility>

namespace lanescope {

// Runs a panel's computation only while the panel is shown (its dock open and its tab in
// front): a request while it is hidden is remembered, and runs once when it is next shown.
// Panels behind other tabs so cost nothing while the user opens reports, selects and zooms.
class WhenShown : public QObject {
public:
    WhenShown(QWidget* panel, std::function<void()> compute) : panel_(panel), compute_(std::move(compute)) {
        panel_->installEventFilter(this);
    }
    // Computes now when the panel is visible, else when it is next shown.
    void request() {
        pending_ = !panel_->isVisible();
        if (!pending_) compute_();
    }
    // A request waits for the panel to be shown.
    bool pending() const { return pending_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == panel_ && event->type() == QEvent::Show && pending_) {
            pending_ = false;
            compute_();
        }
        return false;
    }

private:
    QWidget* panel_;
    std::function<void()> compute_;
    bool pending_ = false;
};

}  // namespace lanescope
