#pragma once
#include <QFrame>

class QLabel;
class QProgressBar;
class QShortcut;

namespace lanescope {

// A slim bar above the timeline while reports load: what is being read, how far (a percent,
// or a busy bar when the importer cannot tell), and Cancel (the button, or Esc where the
// window lets it). The rows already known show below it (TimelineView::setPlaceholders) and
// stay usable. Hidden when nothing loads.
class LoadingBar : public QFrame {
    Q_OBJECT
public:
    explicit LoadingBar(QWidget* parent = nullptr);
    // Shows the bar with `text` ("Opening a.sqlite: reading GPU kernels") and `percent` (-1: unknown).
    void setProgress(const QString& text, int percent);
    QString text() const;
    int percent() const;  // -1 when unknown or hidden
    // Whether Esc cancels while the bar is shown (off where Esc has another use: clearing the
    // selection of a report already open).
    void setEscapeCancels(bool on);

signals:
    void cancelRequested();  // Cancel, or Esc while shown and allowed

private:
    QLabel* label_;
    QProgressBar* bar_;
    QShortcut* escape_;
};

}  // namespace lanescope
