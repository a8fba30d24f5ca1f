#pragma once
#include <QFrame>
#include <memory>
#include <vector>

#include "model/Report.h"

class QLabel;

namespace lanescope {

// A bar above the timeline, where the user looks first, for what makes a report look wrong:
// a report without GPU work and the Nsight Systems messages that say why
// (analysis/NsysMessages.h). Hidden when there is nothing to say; the user can close it.
class NoticeBar : public QFrame {
    Q_OBJECT
public:
    explicit NoticeBar(QWidget* parent = nullptr);
    void setReports(const std::vector<std::shared_ptr<const Report>>& reports);
    QString text() const;

signals:
    void detailsRequested();  // "Messages…": the Diagnostics panel

private:
    QLabel* label_;
};

}  // namespace lanescope
