#include "app/gui/bars/FindBar.h"

#include <QCheckBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QToolButton>
#include <algorithm>

#include "model/Find.h"

namespace lanescope {

FindBar::FindBar(ViewSession* session, QWidget* parent) : QWidget(parent), session_(session) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    input_ = new QLineEdit;
    input_->setPlaceholderText("Find events by name");
    input_->setClearButtonEnabled(true);
    input_->setToolTip("Substring of event names, case-insensitive; Enter: next, Shift+Enter: previous");
    regex_ = new QCheckBox("Regex");
    regex_->setToolTip("Treat the text as a regular expression (ECMAScript)");
    status_ = new QLabel;
    status_->setMinimumWidth(140);
    auto button = [&](const QString& text, const QString& tip, auto slot) {
        auto* b = new QToolButton;
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, slot);
        return b;
    };
    layout->addWidget(new QLabel("Find:"));
    layout->addWidget(input_, 1);
    layout->addWidget(regex_);
    layout->addWidget(button("◀", "Previous hit (Shift+F3)", [this] { previous(); }));
    layout->addWidget(button("▶", "Next hit (F3)", [this] { next(); }));
    layout->addWidget(status_);
    layout->addWidget(button("✕", "Close (Escape)", [this] {
        hide();
        if (session_->timeline()) session_->timeline()->setFocus();
    }));
    connect(input_, &QLineEdit::textChanged, this, &FindBar::search);
    connect(regex_, &QCheckBox::toggled, this, &FindBar::search);
    connect(input_, &QLineEdit::returnPressed, this, [this] {
        if (QGuiApplication::keyboardModifiers() & Qt::ShiftModifier)
            previous();
        else
            next();
    });
    connect(session_, &ViewSession::reportsChanged, this, [this] { setReports(session_->reports()); });
}

void FindBar::setReports(std::vector<std::shared_ptr<const Report>> reports) {
    reports_ = std::move(reports);
    search();
}

void FindBar::activate() {
    show();
    input_->setFocus();
    input_->selectAll();
}

void FindBar::findLongest(const QString& pattern, int report) {
    show();
    const QSignalBlocker blockRegex(regex_), blockInput(input_);
    regex_->setChecked(true);
    input_->setText(pattern);
    search();
    int best = -1;
    int64_t longest = -1;
    for (size_t i = 0; i < hits_.size(); ++i) {
        if (report >= 0 && hits_[i].report != report) continue;
        const auto& ev = reports_[hits_[i].report]->lanes[hits_[i].lane].events;
        const int64_t d = ev.endNs(hits_[i].event) - ev.start_ns[hits_[i].event];
        if (d > longest) longest = d, best = int(i);
    }
    if (best < 0) return;
    current_ = best;
    status_->setText(QString("%1 of %2 (longest)").arg(current_ + 1).arg(hits_.size()));
    session_->selectEvent(hits_[current_], true);
}

void FindBar::search() {
    hits_.clear();
    current_ = -1;
    const QString text = input_->text();
    if (text.isEmpty()) {
        status_->clear();
        return;
    }
    QString error;
    for (size_t r = 0; r < reports_.size(); ++r) {
        const FindResult found = findEvents(*reports_[r], {text.toStdString(), regex_->isChecked(), false});
        if (!found.error.empty()) error = QString::fromStdString(found.error);
        for (const EventRef& h : found.hits) hits_.push_back({int(r), h.lane, h.index});
    }
    auto startOf = [&](const ViewEvent& e) {  // on the shared timeline
        return reports_[e.report]->lanes[e.lane].events.start_ns[e.event] + session_->offset(e.report);
    };
    std::stable_sort(hits_.begin(), hits_.end(),
                     [&](const ViewEvent& a, const ViewEvent& b) { return startOf(a) < startOf(b); });
    status_->setText(!error.isEmpty() ? "invalid regex"
                     : hits_.empty()  ? "no match"
                                      : QString("%1 hits").arg(hits_.size()));
}

void FindBar::jump(int direction) {
    if (hits_.empty()) return;
    current_ = current_ < 0 ? (direction > 0 ? 0 : int(hits_.size()) - 1)
                            : int((current_ + direction + int(hits_.size())) % int(hits_.size()));
    status_->setText(QString("%1 of %2").arg(current_ + 1).arg(hits_.size()));
    session_->selectEvent(hits_[current_], true);
}

void FindBar::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape) {
        hide();
        if (session_->timeline()) session_->timeline()->setFocus();
    } else {
        QWidget::keyPressEvent(event);
    }
}

}  // namespace lanescope
