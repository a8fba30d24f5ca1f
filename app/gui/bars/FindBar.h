#pragma once
#include <QWidget>
#include <memory>
#include <vector>

#include "app/gui/ViewSession.h"
#include "model/Report.h"

class QLineEdit;
class QCheckBox;
class QLabel;

namespace lanescope {

// Find events by name (substring or regex, case-insensitive) across every open report;
// Enter / F3 jumps to the next hit, Shift+Enter / Shift+F3 to the previous one, each zoomed
// to and selected on the timeline. Escape closes the bar. Follows the session's reports.
class FindBar : public QWidget {
    Q_OBJECT
public:
    explicit FindBar(ViewSession* session, QWidget* parent = nullptr);
    void activate();  // show, focus and select the text
    // Searches `pattern` as a regex and jumps to the longest hit (in `report` if >= 0).
    void findLongest(const QString& pattern, int report);
    void next() { jump(+1); }
    void previous() { jump(-1); }
    size_t hitCount() const { return hits_.size(); }
    QLineEdit* input() const { return input_; }

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void setReports(std::vector<std::shared_ptr<const Report>> reports);
    void search();
    void jump(int direction);

    ViewSession* session_;
    std::vector<std::shared_ptr<const Report>> reports_;
    QLineEdit* input_;
    QCheckBox* regex_;
    QLabel* status_;
    std::vector<ViewEvent> hits_;  // by start time across reports
    int current_ = -1;
};

}  // namespace lanescope
