#include "app/gui/bars/NoticeBar.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

#include "analysis/NsysMessages.h"

namespace lanescope {

NoticeBar::NoticeBar(QWidget* parent) : QFrame(parent) {
    setObjectName("noticeBar");
    setStyleSheet(
        "#noticeBar { background: #fff4d6; border-bottom: 1px solid #e0c06a; } "
        "#noticeBar QLabel { color: #5a4300; }");
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    auto* icon = new QLabel;
    icon->setPixmap(QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(18, 18));
    layout->addWidget(icon);
    label_ = new QLabel;
    label_->setTextFormat(Qt::PlainText);
    label_->setWordWrap(true);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(label_, 1);
    auto* details = new QToolButton;
    details->setText("Messages…");
    details->setToolTip("Every message Nsight Systems wrote into the report (Diagnostics panel)");
    connect(details, &QToolButton::clicked, this, &NoticeBar::detailsRequested);
    layout->addWidget(details);
    auto* close = new QToolButton;
    close->setAutoRaise(true);
    close->setIcon(QApplication::style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    close->setToolTip("Hide this notice");
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    layout->addWidget(close);
    hide();
}

void NoticeBar::setReports(const std::vector<std::shared_ptr<const Report>>& reports) {
    QStringList lines;
    for (const auto& report : reports) {
        const std::vector<size_t> why = messagesExplainingNoGpuWork(*report);
        if (why.empty()) continue;
        QString line = QString::fromStdString(reportTitle(*report)) + " holds no GPU work. Nsight Systems says: ";
        QStringList said;
        for (size_t i : why) said << QString::fromStdString(report->nsys_messages[i].text).simplified();
        lines << line + said.join(" ");
    }
    label_->setText(lines.join("\n"));
    setVisible(!lines.isEmpty());
}

QString NoticeBar::text() const { return isVisible() ? label_->text() : QString(); }

}  // namespace lanescope
