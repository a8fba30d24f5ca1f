#include "app/gui/panels/query/QueryPanel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <set>

#include "app/gui/panels/query/QueryExamples.h"
#include "app/gui/panels/query/QueryHistory.h"
#include "app/gui/panels/query/QueryResultModel.h"
#include "app/gui/panels/query/SqlHighlighter.h"
#include "app/gui/panels/query/TableList.h"
#include "timeline/QtText.h"
#include "timeline/TimeFormat.h"

namespace lanescope {
namespace {

QString seconds(double s) { return qs(formatDuration(int64_t(s * 1e9), 3)); }

QToolButton* button(const QString& text, const QString& tip) {
    auto* b = new QToolButton;
    b->setText(text);
    b->setToolTip(tip);
    b->setToolButtonStyle(Qt::ToolButtonTextOnly);
    return b;
}

}  // namespace

QueryPanel::QueryPanel(ViewSession* session, QWidget* parent) : QWidget(parent), session_(session) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(buildTop());

    tables_ = new TableList;
    editor_ = new QPlainTextEdit;
    editor_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    editor_->setTabStopDistance(editor_->fontMetrics().horizontalAdvance(' ') * 4);
    editor_->setLineWrapMode(QPlainTextEdit::NoWrap);
    editor_->setPlaceholderText("SELECT … FROM CUPTI_ACTIVITY_KIND_KERNEL …   (Ctrl+Enter runs it)");
    editor_->setToolTip(
        "SQL over the report, with the tables of an nsys SQLite export. Ctrl+Enter runs it, Esc stops it.");
    highlighter_ = new SqlHighlighter(editor_->document());
    const QStringList history = QueryHistory::queries();
    editor_->setPlainText(history.isEmpty() ? qs(queryExamples(0, 0).front().sql) : history.front());

    model_ = new QueryResultModel(this);
    view_ = new QTableView;
    view_->setModel(model_);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->setAlternatingRowColors(true);
    view_->setWordWrap(false);
    view_->setShowGrid(false);
    view_->setCornerButtonEnabled(false);
    QHeaderView* rows = view_->verticalHeader();  // row numbers, every row one fixed height
    rows->setSectionResizeMode(QHeaderView::Fixed);
    rows->setMinimumSectionSize(1);
    rows->setDefaultSectionSize(view_->fontMetrics().height() + 6);
    rows->setDefaultAlignment(Qt::AlignRight | Qt::AlignVCenter);
    QHeaderView* columns = view_->horizontalHeader();
    columns->setHighlightSections(false);
    // Not stretched: a stretched last column reached past the view and hid its right-aligned numbers.
    columns->setStretchLastSection(false);
    columns->setResizeContentsPrecision(40);  // columns sized from 40 rows
    columns->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(tables_);
    split->addWidget(editor_);
    split->addWidget(view_);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 3);
    split->setSizes({250, 450, 700});
    split->setChildrenCollapsible(false);
    layout->addWidget(split, 1);

    ticker_ = new QTimer(this);
    ticker_->setInterval(100);
    connect(ticker_, &QTimer::timeout, this, [this] {
        setStatus(QString("Running on %1… %2").arg(qs(reportTitle(*running_)), seconds(started_.elapsed() / 1e3)),
                  false);
    });
    buildActions();
    connect(tables_, &TableList::insertRequested, this, [this](const QString& name) {
        editor_->insertPlainText(name);
        editor_->setFocus();
    });
    connect(view_, &QTableView::clicked, this, [this](const QModelIndex& index) { showRow(index.row()); });
    connect(reportChoice_, &QComboBox::currentIndexChanged, this, &QueryPanel::chooseReport);
    connect(session_, &ViewSession::reportsChanged, this, &QueryPanel::setReports);
    connect(session_, &ViewSession::eventSelected, this, [this](std::optional<ViewEvent> event) {
        if (event && event->report >= 0 && event->report < reportChoice_->count())
            reportChoice_->setCurrentIndex(event->report);
    });
    setReports();
}

QHBoxLayout* QueryPanel::buildTop() {
    auto* top = new QHBoxLayout;
    run_ = button("Run", "Run the query on the report (Ctrl+Enter); a query under way is stopped first");
    run_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    run_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    cancel_ = button("Cancel", "Stop the query under way (Esc)");
    cancel_->setEnabled(false);
    examples_ = button("Examples", "Queries to start from; those this report has no rows for are greyed");
    examples_->setPopupMode(QToolButton::InstantPopup);
    examples_->setMenu(new QMenu(examples_));
    examples_->menu()->setToolTipsVisible(true);
    history_ = button("History", "The queries run before, newest first (kept across sessions)");
    history_->setPopupMode(QToolButton::InstantPopup);
    history_->setMenu(new QMenu(history_));
    history_->menu()->setToolTipsVisible(true);
    status_ = new QLabel;
    status_->setTextFormat(Qt::PlainText);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->setMinimumWidth(80);
    status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    reportChoice_ = new QComboBox;
    reportChoice_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    reportChoice_->setToolTip("The report queried; it follows the event selected on the timeline");
    run_->setObjectName("queryRun");
    cancel_->setObjectName("queryCancel");
    examples_->setObjectName("queryExamples");
    history_->setObjectName("queryHistory");
    top->addWidget(run_);
    top->addWidget(cancel_);
    top->addWidget(examples_);
    top->addWidget(history_);
    top->addSpacing(8);
    top->addWidget(status_, 1);
    top->addWidget(new QLabel("Report:"));
    top->addWidget(reportChoice_);
    connect(run_, &QToolButton::clicked, this, &QueryPanel::run);
    connect(cancel_, &QToolButton::clicked, this, &QueryPanel::cancel);
    connect(examples_->menu(), &QMenu::aboutToShow, this, &QueryPanel::fillExamples);
    connect(history_->menu(), &QMenu::aboutToShow, this, &QueryPanel::fillHistory);
    return top;
}

void QueryPanel::buildActions() {
    auto* runAction = new QAction("Run query", this);
    runAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    runAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(runAction, &QAction::triggered, this, &QueryPanel::run);
    addAction(runAction);
    cancelAction_ = new QAction("Cancel query", this);
    cancelAction_->setShortcut(QKeySequence(Qt::Key_Escape));
    cancelAction_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    cancelAction_->setEnabled(false);  // Esc is the others' while no query runs
    connect(cancelAction_, &QAction::triggered, this, &QueryPanel::cancel);
    addAction(cancelAction_);
    auto* copyAction = new QAction("Copy rows", view_);
    copyAction->setShortcut(QKeySequence::Copy);
    copyAction->setShortcutContext(Qt::WidgetShortcut);
    connect(copyAction, &QAction::triggered, this, [this] { QApplication::clipboard()->setText(copyText()); });
    view_->addAction(copyAction);
    auto* showAction = new QAction("Show on the timeline", view_);
    showAction->setShortcuts({QKeySequence(Qt::Key_Return), QKeySequence(Qt::Key_Enter)});
    showAction->setShortcutContext(Qt::WidgetShortcut);
    connect(showAction, &QAction::triggered, this, [this] {
        if (view_->currentIndex().isValid()) showRow(view_->currentIndex().row());
    });
    view_->addAction(showAction);
}

QString QueryPanel::statusText() const { return status_->text(); }

int QueryPanel::currentReport() const { return connection_ ? reportChoice_->currentIndex() : -1; }

void QueryPanel::setStatus(const QString& text, bool error) {
    error_ = error;
    status_->setText(text);
    status_->setToolTip(text);
    status_->setStyleSheet(error ? QString("color: #c0392b") : QString());
}

void QueryPanel::setReports() {
    const auto& reports = session_->reports();
    // A report opened: it is the one queried (as in Statistics); else the one queried stays while open.
    const bool opened = int(reports.size()) > reportChoice_->count();
    auto isOpen = [&](const std::shared_ptr<const Report>& report) {
        return std::find(reports.begin(), reports.end(), report) != reports.end();
    };
    if (running_ && !isOpen(running_)) cancel();  // its report was closed: its memory goes with it
    const Report* chosen = connection_ && !opened ? connection_->report().get() : nullptr;
    int keep = -1;
    {
        const QSignalBlocker block(reportChoice_);
        reportChoice_->clear();
        for (size_t i = 0; i < reports.size(); ++i) {
            reportChoice_->addItem(qs(reportTitle(*reports[i])));
            if (reports[i].get() == chosen) keep = int(i);
        }
        reportChoice_->setCurrentIndex(keep >= 0 ? keep : int(reports.size()) - 1);  // else the newest
        reportChoice_->setEnabled(!reports.empty());
    }
    if (resultReport_ && !isOpen(resultReport_)) {
        model_->setResult({});  // rows of a closed report: its memory goes with it
        resultReport_.reset();
        place_.reset();
        setStatus({}, false);
    }
    if (keep < 0) chooseReport(reportChoice_->currentIndex());
    if (!pending_.isEmpty() && connection_) {
        editor_->setPlainText(pending_);
        pending_.clear();
        run();
    }
}

void QueryPanel::chooseReport(int index) {
    const auto& reports = session_->reports();
    if (index < 0 || size_t(index) >= reports.size()) {
        connection_.reset();
        tableInfo_.clear();
        tablesTask_.cancel();
        tables_->setTables({});
        if (reports.empty()) setStatus("No report open", false);
        return;
    }
    if (connection_ && connection_->report() == reports[size_t(index)]) return;
    connection_ = std::make_shared<QueryConnection>(reports[size_t(index)]);
    tableInfo_.clear();
    tables_->setTables({});
    whenShown_.request();
}

void QueryPanel::loadTables() {
    if (!connection_) return;
    tablesTask_.run([connection = connection_] { return connection->tables(currentCancelFlag().get()); },
                    [this](std::vector<QueryTable> tables) {
                        tableInfo_ = std::move(tables);
                        tables_->setTables(tableInfo_);
                    });
}

void QueryPanel::run() {
    const QString sql = editor_->toPlainText();
    if (sql.trimmed().isEmpty()) return;
    if (!connection_) {
        setStatus("No report open", true);
        return;
    }
    QueryHistory::add(sql);
    setRunning(connection_->report());
    setStatus(QString("Running on %1…").arg(qs(reportTitle(*running_))), false);
    task_.run([connection = connection_,
               text = sql.toStdString()] { return connection->run(text, currentCancelFlag().get()); },
              [this](QueryOutcome outcome) { showOutcome(std::move(outcome)); });
}

void QueryPanel::setRunning(std::shared_ptr<const Report> report) {
    running_ = std::move(report);
    cancel_->setEnabled(running_ != nullptr);
    cancelAction_->setEnabled(running_ != nullptr);
    if (running_) {
        started_.start();
        ticker_->start();
    } else {
        ticker_->stop();
    }
}

void QueryPanel::cancel() {
    if (!running_) return;
    task_.cancel();
    setRunning(nullptr);
    setStatus(QString("Cancelled after %1").arg(seconds(started_.elapsed() / 1e3)), false);
    emit finished();
}

void QueryPanel::runWhenOpen(const QString& sql) {
    pending_ = sql;
    if (connection_) setReports();
}

void QueryPanel::showOutcome(QueryOutcome outcome) {
    resultReport_ = running_;
    setRunning(nullptr);
    if (!outcome.error.empty()) {
        model_->setResult({});
        place_.reset();
        setStatus(qs(outcome.error), true);
        emit finished();
        return;
    }
    model_->setResult(std::move(outcome.result));
    const QueryResult& result = model_->result();
    place_.emplace(result.columns());
    const QLocale locale;
    const size_t n = result.rowCount();
    QString text = result.cut() ? QString("The first %1 rows (the result has more: add a LIMIT or an aggregate)")
                                      .arg(locale.toString(qulonglong(n)))
                                : locale.toString(qulonglong(n)) + (n == 1 ? " row" : " rows");
    text += QString(" in %1 · %2").arg(seconds(outcome.seconds), qs(reportTitle(*resultReport_)));
    setStatus(text, false);
    view_->setToolTip(place_->placesRows()
                          ? "Click a row (or press Enter) to show it on the timeline. Ctrl+C copies the selected rows."
                          : "Rows with start and end columns (ns) show on the timeline when clicked. Ctrl+C copies "
                            "the selected rows.");
    view_->resizeColumnsToContents();  // from the first rows only (the header's precision)
    const int most = std::max(120, view_->viewport()->width() / 2);
    for (int c = 0; c < model_->columnCount(); ++c)
        view_->setColumnWidth(c, std::min(view_->columnWidth(c) + 12, most));
    emit finished();
}

void QueryPanel::showRow(int row) {
    if (!place_ || !place_->placesRows() || row < 0 || size_t(row) >= model_->result().rowCount()) return;
    const auto& reports = session_->reports();
    const auto it = std::find(reports.begin(), reports.end(), resultReport_);
    if (it == reports.end()) return;
    const int report = int(it - reports.begin());
    const std::optional<RowPlace> place = placeRow(**it, model_->result(), *place_, size_t(row));
    if (!place) return;
    if (place->event) {  // as the Events table shows its rows' events
        session_->selectEvent(ViewEvent{report, place->event->lane, place->event->index}, true);
        return;
    }
    const int64_t offset = session_->offset(report);
    const int64_t start = place->start_ns + offset, end = place->end_ns + offset;
    if (end > start) {
        session_->setSelectedRange(TimeInterval{start, end});
        session_->fitSelection();
    } else {  // an instant: centred, at the same zoom
        const auto [begin, visibleEnd] = session_->visibleRange();
        session_->zoomTo(start - (visibleEnd - begin) / 2, start + (visibleEnd - begin) / 2);
    }
}

void QueryPanel::fillExamples() {
    QMenu* menu = examples_->menu();
    menu->clear();
    const int index = currentReport();
    const int64_t offset = session_->offset(index);
    const TimeInterval range = session_->selectedRange().value_or(session_->visibleRange());
    for (const QueryExample& example : queryExamples(range.first - offset, range.second - offset)) {
        QAction* action = menu->addAction(qs(example.title));
        std::string missing;
        for (const std::string& table : example.tables) {
            const auto found = std::find_if(tableInfo_.begin(), tableInfo_.end(),
                                            [&](const QueryTable& t) { return t.name == table; });
            if (!tableInfo_.empty() && (found == tableInfo_.end() || !found->has_rows)) missing = table;
        }
        action->setEnabled(index >= 0 && missing.empty());
        action->setToolTip(missing.empty() ? qs(example.sql) : qs("This report has no rows in " + missing));
        connect(action, &QAction::triggered, this, [this, sql = qs(example.sql)] {
            editor_->setPlainText(sql);
            run();
        });
    }
}

void QueryPanel::fillHistory() {
    QMenu* menu = history_->menu();
    menu->clear();
    const QStringList queries = QueryHistory::queries();
    if (queries.isEmpty()) menu->addAction("No queries run yet")->setEnabled(false);
    for (const QString& sql : queries) {
        QString line = sql.simplified();
        if (line.size() > 90) line = line.left(89) + QChar(0x2026);
        QAction* action = menu->addAction(line);
        action->setToolTip(sql);
        connect(action, &QAction::triggered, this, [this, sql] {
            editor_->setPlainText(sql);
            editor_->setFocus();
        });
    }
    menu->addSeparator();
    menu->addAction("Clear history", this, [] { QueryHistory::clear(); })->setEnabled(!queries.isEmpty());
}

QString QueryPanel::copyText() const {
    std::set<int> rows;
    for (const QItemSelectionRange& range : view_->selectionModel()->selection())
        for (int r = range.top(); r <= range.bottom(); ++r) rows.insert(r);
    if (rows.empty())
        for (int r = 0; r < model_->rowCount(); ++r) rows.insert(r);
    const QueryResult& result = model_->result();
    QStringList lines{qs(result.columns().empty() ? std::string() : result.columns().front())};
    for (size_t c = 1; c < result.columnCount(); ++c) lines.front() += '\t' + qs(result.columns()[c]);
    for (const int r : rows) {
        QStringList cells;
        for (size_t c = 0; c < result.columnCount(); ++c)
            cells << (result.type(size_t(r), c) == QueryResult::Type::Null ? QString() : model_->text(size_t(r), c));
        lines << cells.join('\t');
    }
    return lines.join('\n');
}

void QueryPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) highlighter_->updateColours();
    QWidget::changeEvent(event);
}

}  // namespace lanescope
