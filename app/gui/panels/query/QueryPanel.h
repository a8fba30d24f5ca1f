#pragma once
#include <QElapsedTimer>
#include <QString>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "app/gui/LatestTask.h"
#include "app/gui/ViewSession.h"
#include "app/gui/WhenShown.h"
#include "app/gui/panels/query/QueryConnection.h"
#include "app/gui/panels/query/RowOnTimeline.h"

class QAction;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QMenu;
class QPlainTextEdit;
class QTableView;
class QTimer;
class QToolButton;

namespace lanescope {

class QueryResultModel;
class SqlHighlighter;
class TableList;

// The Query panel: SQL over one open report (query/ReportSql.h: tables named and shaped like
// Nsight Systems' SQLite export), run off the GUI thread and cancellable (Esc, Cancel; a new
// run cancels the one under way). The report is picked in a list, and follows the event
// selected on the timeline. An editor with SQL colours and Run (Ctrl+Enter), the examples
// that this report has rows for, the history of queries run (kept across sessions), the
// report's tables and columns (double-click types a name), and the result as a table of at
// most QueryResult::kMaxRows rows; a row with start and end columns (ns) shows on the
// timeline when clicked: its event where its globalTid, deviceId and streamId, or laneId name
// one, else its time range. A bad query's one-line message shows in red. Ctrl+C copies the
// selected rows (or all) as tab-separated text.
class QueryPanel : public QWidget {
    Q_OBJECT
public:
    explicit QueryPanel(ViewSession* session, QWidget* parent = nullptr);

    QPlainTextEdit* editor() const { return editor_; }
    QTableView* view() const { return view_; }
    QueryResultModel* model() const { return model_; }
    // The status line: the rows and the time of the last result, or its error.
    QString statusText() const;
    bool statusIsError() const { return error_; }
    // The report the next query runs on: an index into the session's reports, -1 for none.
    int currentReport() const;
    // A query under way (not cancelled).
    bool running() const { return running_ != nullptr; }
    // Any background work not finished yet, cancelled runs still stopping included.
    bool busy() const { return task_.busy() || tablesTask_.busy(); }

    // Runs the editor's text (Ctrl+Enter).
    void run();
    // Stops the query under way (Esc); its result, if it still comes, is dropped.
    void cancel();
    // Puts `sql` into the editor and runs it now, or once a report is open.
    void runWhenOpen(const QString& sql);
    // Shows a result row on the timeline, as a click on it does.
    void showRow(int row);

signals:
    void finished();  // a result or an error shown

protected:
    void changeEvent(QEvent* event) override;

private:
    QHBoxLayout* buildTop();  // Run, Cancel, Examples, History, the status line, the report
    void buildActions();
    void setReports();
    void chooseReport(int index);
    void loadTables();
    // A query under way on `report` (null: none): Cancel and Esc enabled, its running time shown.
    void setRunning(std::shared_ptr<const Report> report);
    void showOutcome(QueryOutcome outcome);
    void setStatus(const QString& text, bool error);
    void fillExamples();
    void fillHistory();
    QString copyText() const;

    ViewSession* session_;
    QToolButton* run_;
    QToolButton* cancel_;
    QAction* cancelAction_;  // Esc
    QToolButton* examples_;
    QToolButton* history_;
    QLabel* status_;
    QComboBox* reportChoice_;  // the session's reports, in their order
    TableList* tables_;
    QPlainTextEdit* editor_;
    SqlHighlighter* highlighter_;
    QTableView* view_;
    QueryResultModel* model_;
    QTimer* ticker_;                               // the running time in the status line
    QElapsedTimer started_;                        // of the query under way
    std::shared_ptr<QueryConnection> connection_;  // of the chosen report; null for none
    std::vector<QueryTable> tableInfo_;            // its tables once listed, in ReportSql's order
    std::shared_ptr<const Report> running_;        // the report of the query under way; null for none
    std::shared_ptr<const Report> resultReport_;   // the report the shown rows came from
    std::optional<PlaceColumns> place_;            // the shown rows' columns that place them
    QString pending_;                              // runWhenOpen's query, until a report opens
    bool error_ = false;
    LatestTask<QueryOutcome> task_{this};
    LatestTask<std::vector<QueryTable>> tablesTask_{this};
    WhenShown whenShown_{this, [this] { loadTables(); }};
};

}  // namespace lanescope
