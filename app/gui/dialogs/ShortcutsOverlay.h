#pragma once
#include <QString>
#include <QWidget>
#include <vector>

namespace lanescope {

// One line of the shortcuts overlay: the keys (or mouse gesture) and what they do. A line
// with empty keys starts a section named by `action`.
struct ShortcutLine {
    QString keys;
    QString action;
};

// Every key and gesture of the viewer, in sections; README's table lists the same.
const std::vector<ShortcutLine>& shortcutLines();

// A translucent panel over its parent (the main window, timeline and panels dimmed) listing
// shortcutLines(), shown with ? or F1; any key or click closes it. Follows the parent's size
// while shown; in two columns when one does not fit the height.
class ShortcutsOverlay : public QWidget {
    Q_OBJECT
public:
    explicit ShortcutsOverlay(QWidget* parent);
    void popUp();

protected:
    void paintEvent(QPaintEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace lanescope
