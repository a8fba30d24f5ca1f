#include "app/gui/bars/LoadingBar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QShortcut>
#include <QToolButton>

namespace lanescope {

LoadingBar::LoadingBar(QWidget* parent) : QFrame(parent) {
    setObjectName("loadingBar");
    // The window's own colours, a hairline below: part of the timeline, not a warning.
    setStyleSheet("#loadingBar { background: palette(window); border-bottom: 1px solid palette(mid); }");
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 3, 6, 3);
    layout->setSpacing(10);
    label_ = new QLabel;
    label_->setTextFormat(Qt::PlainText);
    label_->setMinimumWidth(120);
    label_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // long names elide, never widen the window
    layout->addWidget(label_, 1);
    bar_ = new QProgressBar;
    bar_->setFixedSize(220, 14);
    bar_->setFormat("%p %");
    bar_->setTextVisible(true);
    bar_->setStyleSheet("QProgressBar { font-size: 8pt; }");
    layout->addWidget(bar_);
    auto* cancel = new QToolButton;
    cancel->setText("Cancel");
    cancel->setToolTip("Stop opening (Esc, while no report is open); the reports already open stay");
    connect(cancel, &QToolButton::clicked, this, &LoadingBar::cancelRequested);
    layout->addWidget(cancel);
    // Esc anywhere in the window while the bar is shown (a hidden widget's shortcut is off).
    escape_ = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    escape_->setContext(Qt::WindowShortcut);
    connect(escape_, &QShortcut::activated, this, &LoadingBar::cancelRequested);
    hide();
}

void LoadingBar::setProgress(const QString& text, int percent) {
    label_->setText(text);
    label_->setToolTip(text);
    bar_->setRange(0, percent < 0 ? 0 : 100);  // 0..0: a busy bar
    if (percent >= 0) bar_->setValue(percent);
    show();
}

void LoadingBar::setEscapeCancels(bool on) { escape_->setEnabled(on); }

QString LoadingBar::text() const { return isVisible() ? label_->text() : QString(); }

int LoadingBar::percent() const { return isVisible() && bar_->maximum() > 0 ? bar_->value() : -1; }

}  // namespace lanescope
