#pragma once
#include <QString>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "app/gui/LatestTask.h"
#include "app/gui/ViewSession.h"
#include "app/gui/WhenShown.h"
#include "app/gui/panels/events/EventTableModel.h"

class QLabel;
class QLineEdit;
class QStackedWidget;
class QTableView;
class QTimer;
class QToolButton;

namespace lanescope {

// Nsight Systems' Events View: every event of the rows picked on the timeline (a click on a
// row name, Ctrl+click for more; without one, the row of the selected event) in the selected
// time range (without one, the visible range), one column per field. Sorts by any column and
// filters by name (text or /regex/) off the GUI thread when the list is large; selecting a row
// selects its event in the session (double-click or Enter also zooms to it), and an event
// selected elsewhere selects its row. Ctrl+C copies the selected rows as tab-separated text,
// Export CSV writes every row shown.
class EventsPanel : public QWidget {
    Q_OBJECT
public:
    explicit EventsPanel(ViewSession* session, QWidget* parent = nullptr);

    QTableView* view() const { return view_; }
    EventTableModel* model() const { return model_; }
    QLineEdit* filter() const { return filter_; }
    QString scopeText() const;
    // Computing, or waiting to (inputs changed a moment ago).
    bool busy() const;
    // The text Ctrl+C puts on the clipboard: the selected rows, else every row; 100,000 at most.
    QString copyText() const;
    // Writes every row shown as CSV off the GUI thread; `exported` says when it is done.
    void exportCsv(const QString& path);
    // Deferred lanes were built (TimelineView::deferredLanesBuilt): a list of one, empty until
    // then, is computed again from its events.
    void deferredLanesBuilt() { schedule(); }

signals:
    void updated();                                            // new contents shown
    void exported(const QString& path, const QString& error);  // error empty on success

private:
    // What the list is computed from; a change recomputes, an equal one does nothing.
    struct Inputs {
        std::vector<EventSource> sources;
        int64_t begin_ns = 0, end_ns = 0;
        QString filter;
        EventField field = EventField::Start;
        bool descending = false;
        bool sameRows(const Inputs& o) const;
        bool operator==(const Inputs& o) const {
            return sameRows(o) && filter == o.filter && field == o.field && descending == o.descending;
        }
    };
    struct Result {
        EventTableContents contents;
        Inputs inputs;
        QString error;
    };
    void schedule();
    // Computes now when the panel is shown, else once it is next shown (WhenShown).
    void recompute() { whenShown_.request(); }
    void computeNow();
    void show(Result result);
    void showRowOf(std::optional<ViewEvent> event);
    void rowChosen(int row, bool reveal);
    void updateColumns();
    std::vector<EventField> visibleFields() const;
    static Result compute(EventTableContents base, Inputs inputs, bool reuseRows);

    ViewSession* session_;
    QLabel* scope_;
    QLineEdit* filter_;
    QToolButton* copy_;
    QToolButton* export_;
    QStackedWidget* stack_;
    QLabel* placeholder_;
    QTableView* view_;
    EventTableModel* model_;
    QTimer* pending_;
    std::optional<Inputs> shown_;      // what the contents were computed from
    std::optional<Inputs> computing_;  // the latest run under way
    QString error_;
    EventField field_ = EventField::Start;
    bool descending_ = false;
    bool syncing_ = false;  // selecting a row for the session's event: do not echo it back
    LatestTask<Result> task_{this};
    WhenShown whenShown_{this, [this] { computeNow(); }};
};

}  // namespace lanescope
