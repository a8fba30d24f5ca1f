#include "app/gui/panels/events/EventsPanel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPainter>
#include <QShowEvent>
#include <QStackedWidget>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <set>

#include "app/gui/WorkPool.h"
#include "app/gui/import/NvtxOnGpuLanes.h"
#include "app/gui/panels/events/EventTableExport.h"
#include "model/DeferredLane.h"
#include "model/EventTableText.h"
#include "timeline/DeferredLanes.h"
#include "timeline/QtText.h"
#include "timeline/TimeFormat.h"

namespace lanescope {
namespace {

// Lists up to this many events (an upper bound: every event of the lanes) are built on the
// GUI thread at once; longer ones off it.
constexpr size_t kInlineEvents = 200000;
constexpr size_t kCopyLimit = 100000;  // rows on the clipboard at most; Export CSV writes any number

// Cells with a few pixels of room on each side, so that a right-aligned number and the
// left-aligned text of the next column do not touch.
class PaddedDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        QStyleOptionViewItem padded(option);
        padded.rect.adjust(kPadding, 0, -kPadding, 0);
        if (option.state & QStyle::State_Selected)  // the selection still covers the whole cell
            painter->fillRect(
                option.rect,
                option.palette.brush(option.state & QStyle::State_Active ? QPalette::Active : QPalette::Inactive,
                                     QPalette::Highlight));
        QStyledItemDelegate::paint(painter, padded, index);
    }

private:
    static constexpr int kPadding = 4;
};

// The events of `report`'s lane `lane` when a deferred lane built since the import holds them,
// else null (the report's own lane holds them, or a deferred lane is not built yet).
const Lane* builtLane(const Report& report, uint32_t lane) {
    return isDeferredLane(report, lane) ? DeferredLanes::of(report).ready(lane) : nullptr;
}

bool showsKernels(LaneKind k) { return k == LaneKind::GpuStream || k == LaneKind::Nccl; }
bool showsNvtx(LaneKind k) {
    return k == LaneKind::Nvtx || k == LaneKind::NvtxStartEnd || k == LaneKind::NvtxGpuProjection ||
           k == LaneKind::Nccl;
}

}  // namespace

bool EventsPanel::Inputs::sameRows(const Inputs& o) const {
    if (begin_ns != o.begin_ns || end_ns != o.end_ns || sources.size() != o.sources.size()) return false;
    for (size_t i = 0; i < sources.size(); ++i)
        if (sources[i].report != o.sources[i].report || sources[i].lane != o.sources[i].lane ||
            sources[i].offset_ns != o.sources[i].offset_ns || sources[i].built != o.sources[i].built)
            return false;
    return true;
}

EventsPanel::EventsPanel(ViewSession* session, QWidget* parent) : QWidget(parent), session_(session) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    scope_ = new QLabel;
    scope_->setTextFormat(Qt::PlainText);
    filter_ = new QLineEdit;
    filter_->setPlaceholderText("Filter by name: text, or /regex/");
    filter_->setClearButtonEnabled(true);
    filter_->setToolTip(
        "Show only the events whose name contains this text (case-insensitive); /…/ for a regular "
        "expression");
    filter_->setMinimumWidth(240);
    copy_ = new QToolButton;
    copy_->setText("Copy");
    copy_->setToolTip("Copy the selected rows (or all), up to 100,000, as tab-separated text with a header (Ctrl+C)");
    export_ = new QToolButton;
    export_->setText("Export CSV…");
    export_->setToolTip("Save every row shown as CSV, with the times also in plain nanoseconds");
    top->addWidget(scope_, 1);
    top->addWidget(filter_);
    top->addWidget(copy_);
    top->addWidget(export_);
    layout->addLayout(top);

    model_ = new EventTableModel(this);
    view_ = new QTableView;
    view_->setModel(model_);
    view_->setItemDelegate(new PaddedDelegate(view_));
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->setAlternatingRowColors(true);
    view_->setWordWrap(false);
    view_->setTextElideMode(Qt::ElideMiddle);
    view_->setShowGrid(false);
    view_->setCornerButtonEnabled(false);
    // Every row the same height, fixed: the view never measures rows, so ten million scroll.
    QHeaderView* rowsHeader = view_->verticalHeader();
    rowsHeader->hide();
    rowsHeader->setSectionResizeMode(QHeaderView::Fixed);
    rowsHeader->setMinimumSectionSize(1);
    rowsHeader->setDefaultSectionSize(view_->fontMetrics().height() + 6);
    QHeaderView* columns = view_->horizontalHeader();
    columns->setSectionsMovable(true);
    columns->setHighlightSections(false);
    columns->setStretchLastSection(true);
    columns->setSortIndicator(int(EventField::Start), Qt::AscendingOrder);
    columns->setSortIndicatorShown(true);
    // Widths from sample texts, never from the rows.
    const QFontMetrics fm = view_->fontMetrics();
    const QFontMetrics headerFm = columns->fontMetrics();
    auto width = [&](EventField f, const char* sample) {
        const int title = headerFm.horizontalAdvance(QString::fromUtf8(eventFieldTitle(f))) + 28;  // + sort arrow
        return std::max(fm.horizontalAdvance(QString::fromUtf8(sample)) + 24, title);
    };
    const char* samples[kEventFieldCount] = {"00.000000000 s",
                                             "00.000000000 s",
                                             "000.000 ms",
                                             "",
                                             "NVTX range",
                                             "",
                                             "Depth",
                                             "Correlation id",
                                             "1024 × 1024 × 16",
                                             "1024 × 1 × 1",
                                             "Registers/thread",
                                             "33,280 B (33.28 kB)",
                                             "Occupancy",
                                             "16,777,216 B (16.78 MB)",
                                             "000.000 GB/s",
                                             "Device-to-Device",
                                             "Pageable → Device",
                                             "Stream wait sync",
                                             "Domain",
                                             "#RRGGBB"};
    for (size_t f = 0; f < kEventFieldCount; ++f)
        columns->resizeSection(int(f), width(static_cast<EventField>(f), samples[f]));
    columns->resizeSection(int(EventField::Name), fm.horizontalAdvance('x') * 60);
    columns->resizeSection(int(EventField::Row), fm.horizontalAdvance('x') * 18);
    view_->setSortingEnabled(true);
    view_->setToolTip(
        "Click a row to select its event on the timeline; double-click or Enter zooms to it. "
        "Click a header to sort.");

    placeholder_ = new QLabel;
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setWordWrap(true);
    placeholder_->setTextFormat(Qt::PlainText);
    placeholder_->setForegroundRole(QPalette::PlaceholderText);
    stack_ = new QStackedWidget;
    stack_->addWidget(placeholder_);
    stack_->addWidget(view_);
    layout->addWidget(stack_, 1);

    pending_ = new QTimer(this);
    pending_->setSingleShot(true);
    pending_->setInterval(60);
    connect(pending_, &QTimer::timeout, this, &EventsPanel::recompute);

    auto* copyAction = new QAction("Copy rows", view_);
    copyAction->setShortcut(QKeySequence::Copy);
    copyAction->setShortcutContext(Qt::WidgetShortcut);
    connect(copyAction, &QAction::triggered, this, [this] { QApplication::clipboard()->setText(copyText()); });
    view_->addAction(copyAction);
    auto* revealAction = new QAction("Zoom to the event", view_);
    revealAction->setShortcuts({QKeySequence(Qt::Key_Return), QKeySequence(Qt::Key_Enter)});
    revealAction->setShortcutContext(Qt::WidgetShortcut);
    connect(revealAction, &QAction::triggered, this, [this] {
        if (view_->currentIndex().isValid()) rowChosen(view_->currentIndex().row(), true);
    });
    view_->addAction(revealAction);
    connect(copy_, &QToolButton::clicked, this, [this] { QApplication::clipboard()->setText(copyText()); });
    connect(export_, &QToolButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, "Export events", "events.csv", "CSV (*.csv)");
        if (!path.isEmpty()) exportCsv(path);
    });
    // A row picked by a click or a key: the selection changes (focus alone only moves the
    // current index, and must not select an event).
    connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        const QModelIndex current = view_->currentIndex();
        if (!syncing_ && current.isValid() && view_->selectionModel()->isRowSelected(current.row(), {}))
            rowChosen(current.row(), false);
    });
    connect(view_, &QTableView::doubleClicked, this,
            [this](const QModelIndex& index) { rowChosen(index.row(), true); });
    connect(model_, &EventTableModel::sortRequested, this, [this](int column, Qt::SortOrder order) {
        field_ = static_cast<EventField>(std::clamp(column, 0, int(kEventFieldCount) - 1));
        descending_ = order == Qt::DescendingOrder;
        recompute();
    });
    connect(filter_, &QLineEdit::textChanged, this, [this] {
        pending_->setInterval(150);
        schedule();
    });

    connect(session_, &ViewSession::reportsChanged, this, &EventsPanel::schedule);
    connect(session_, &ViewSession::offsetsChanged, this, &EventsPanel::schedule);
    connect(session_, &ViewSession::selectionChanged, this, &EventsPanel::schedule);
    connect(session_, &ViewSession::lanesSelected, this, &EventsPanel::schedule);
    connect(session_, &ViewSession::visibleRangeChanged, this, [this] {
        if (!session_->selectedRange()) schedule();
    });
    connect(session_, &ViewSession::eventSelected, this, [this](std::optional<ViewEvent> event) {
        if (session_->selectedLanes().empty()) schedule();  // the list may follow the event's row
        showRowOf(event);
    });
    recompute();
}

QString EventsPanel::scopeText() const { return scope_->text(); }

bool EventsPanel::busy() const { return pending_->isActive() || computing_.has_value(); }

void EventsPanel::schedule() { pending_->start(); }

void EventsPanel::computeNow() {
    pending_->stop();
    pending_->setInterval(60);
    const auto& reports = session_->reports();
    std::vector<ViewLane> lanes = session_->selectedLanes();
    if (lanes.empty())
        if (const auto event = session_->selectedEvent()) lanes = {{event->report, event->lane}};
    Inputs in;
    for (const ViewLane& l : lanes)
        if (l.report >= 0 && size_t(l.report) < reports.size() && l.lane < reports[size_t(l.report)]->lanes.size())
            in.sources.push_back({reports[size_t(l.report)].get(), l.lane, session_->offset(l.report),
                                  builtLane(*reports[size_t(l.report)], l.lane)});
    if (in.sources.empty()) {
        task_.cancel();
        computing_.reset();
        shown_.reset();
        model_->setContents({});
        placeholder_->setText(
            reports.empty() ? "No report open."
                            : "Pick rows to list their events: click a row's name on the timeline (Ctrl+click adds "
                              "more; a GPU or thread row stands for the rows below it), or select an event.\n"
                              "Drag on the timeline to choose a time range; without one, the visible range is listed.");
        stack_->setCurrentWidget(placeholder_);
        scope_->setText(reports.empty() ? "No report" : "No rows picked");
        emit updated();
        return;
    }
    const TimeInterval range = session_->selectedRange().value_or(session_->visibleRange());
    in.begin_ns = range.first;
    in.end_ns = std::max(range.second, range.first + 1);
    in.filter = filter_->text().trimmed();
    in.field = field_;
    in.descending = descending_;
    if (computing_ ? *computing_ == in : shown_ && *shown_ == in) return;  // nothing new

    const bool reuse = shown_ && shown_->sameRows(in) && model_->contents().rows;
    EventTableContents base;
    base.reports = reports;
    if (reuse) base.rows = model_->contents().rows;
    size_t estimate = reuse ? base.rows->size() : 0;
    if (!reuse)
        for (const EventSource& s : in.sources) estimate += s.shownLane().events.size();
    // One row in start order needs no per-event work at all (see EventRows).
    const bool indexOnly =
        in.sources.size() == 1 && in.filter.isEmpty() && in.field == EventField::Start && !in.descending;
    if (indexOnly || estimate <= kInlineEvents) {
        task_.cancel();
        computing_.reset();
        show(compute(std::move(base), std::move(in), reuse));
        return;
    }
    computing_ = in;
    scope_->setText(reuse ? "Sorting…" : "Listing events…");
    task_.run([base = std::move(base), in = std::move(in),
               reuse]() mutable { return compute(std::move(base), std::move(in), reuse); },
              [this](Result result) {
                  computing_.reset();
                  show(std::move(result));
              });
}

EventsPanel::Result EventsPanel::compute(EventTableContents base, Inputs in, bool reuseRows) {
    Result result;
    result.contents.reports = std::move(base.reports);
    result.contents.rows =
        reuseRows ? std::move(base.rows)
                  : std::make_shared<const EventRows>(EventRows::collect(in.sources, in.begin_ns, in.end_ns));
    const EventRows& rows = *result.contents.rows;
    std::optional<EventRowOrder> order;
    if (!in.filter.isEmpty()) {
        FindQuery query;
        const bool regex = in.filter.size() >= 2 && in.filter.startsWith('/') && in.filter.endsWith('/');
        query.text = (regex ? in.filter.mid(1, in.filter.size() - 2) : in.filter).toStdString();
        query.regex = regex;
        std::string error;
        order = filterEventRows(rows, query, &error);
        result.error = qs(error);
    }
    if (in.field != EventField::Start || in.descending)
        order = sortEventRows(rows, order ? &*order : nullptr, in.field, in.descending);
    if (order) result.contents.order = std::make_shared<const EventRowOrder>(std::move(*order));
    result.inputs = std::move(in);
    return result;
}

void EventsPanel::show(Result result) {
    shown_ = std::move(result.inputs);
    error_ = result.error;
    model_->setContents(std::move(result.contents));
    filter_->setStyleSheet(error_.isEmpty() ? QString() : QString("color: #c0392b"));
    stack_->setCurrentWidget(view_);
    updateColumns();

    const EventTableContents& c = model_->contents();
    const QLocale locale;
    QString text = locale.toString(qulonglong(c.size())) + (c.size() == 1 ? " event" : " events");
    if (!shown_->filter.isEmpty())
        text += " of " + locale.toString(qulonglong(c.rows->size())) + (error_.isEmpty() ? "" : " (" + error_ + ")");
    // The rows by their labels: a stream's kernel and memory lanes are one row.
    std::set<std::pair<const Report*, std::string>> shownRows;
    for (const EventSource& s : c.rows->sources()) shownRows.emplace(s.report, laneLabel(*s.report, s.lane));
    text += " in " + (shownRows.size() == 1 ? qs(shownRows.begin()->second) : QString("%1 rows").arg(shownRows.size()));
    if (session_->selectedLanes().empty()) text += " (the selected event's row)";
    text += QString(", %1 %2").arg(session_->selectedRange() ? "selected range" : "visible range",
                                   qs(formatDuration(shown_->end_ns - shown_->begin_ns, 4)));
    scope_->setText(text);
    showRowOf(session_->selectedEvent());
    emit updated();
}

void EventsPanel::updateColumns() {
    bool kernels = false, copies = false, api = false, sync = false, nvtx = false, nested = false;
    if (const auto& rows = model_->contents().rows)
        for (const EventSource& s : rows->sources()) {
            const Lane& lane = s.shownLane();
            kernels = kernels || showsKernels(lane.kind);
            copies = copies || lane.kind == LaneKind::GpuStream;
            api = api || lane.kind == LaneKind::CudaApi;
            sync = sync || lane.kind == LaneKind::CudaSync;
            nvtx = nvtx || showsNvtx(lane.kind);
            nested = nested || lane.depth_count > 1;
        }
    auto show = [this](EventField f, bool visible) { view_->setColumnHidden(int(f), !visible); };
    show(EventField::Depth, nested);
    show(EventField::CorrelationId, kernels || api || sync);
    for (EventField f :
         {EventField::Grid, EventField::Block, EventField::Registers, EventField::SharedMemory, EventField::Occupancy})
        show(f, kernels);
    for (EventField f : {EventField::Bytes, EventField::Throughput, EventField::CopyKind, EventField::Memory})
        show(f, copies);
    show(EventField::SyncType, sync);
    show(EventField::Domain, nvtx);
    show(EventField::Color, nvtx);
}

std::vector<EventField> EventsPanel::visibleFields() const {
    std::vector<EventField> fields;
    const QHeaderView* header = view_->horizontalHeader();
    for (int visual = 0; visual < header->count(); ++visual) {
        const int logical = header->logicalIndex(visual);
        if (!header->isSectionHidden(logical)) fields.push_back(static_cast<EventField>(logical));
    }
    return fields;
}

void EventsPanel::showRowOf(std::optional<ViewEvent> event) {
    std::optional<int> row;
    if (event && event->report >= 0 && size_t(event->report) < session_->reports().size())
        row = model_->rowOf(session_->reports()[size_t(event->report)].get(), event->lane, event->event);
    syncing_ = true;
    if (row) {
        const QModelIndex index = model_->index(*row, int(EventField::Start));
        view_->selectionModel()->setCurrentIndex(index,
                                                 QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        view_->scrollTo(index);
    } else {
        view_->selectionModel()->clearSelection();
        view_->selectionModel()->setCurrentIndex({}, QItemSelectionModel::NoUpdate);
    }
    syncing_ = false;
}

void EventsPanel::rowChosen(int row, bool reveal) {
    const EventTableContents& c = model_->contents();
    if (row < 0 || size_t(row) >= c.size()) return;
    const SourcedEvent e = c.at(size_t(row));
    const EventSource& source = c.rows->source(e);
    const auto& reports = session_->reports();
    const auto it =
        std::find_if(reports.begin(), reports.end(), [&](const auto& r) { return r.get() == source.report; });
    if (it == reports.end()) return;
    // Zooming would change the visible range and so this list: the listed range becomes the
    // selected one first.
    if (reveal && !session_->selectedRange() && shown_)
        session_->setSelectedRange(TimeInterval{shown_->begin_ns, shown_->end_ns});
    // An event of an "NVTX on GPU" lane stands for an NVTX range, which is what is selected.
    const EventRef chosen =
        projectedNvtxRange(*source.report, source.lane, e.index).value_or(EventRef{source.lane, e.index});
    session_->selectEvent(ViewEvent{int(it - reports.begin()), chosen.lane, chosen.index}, reveal);
}

QString EventsPanel::copyText() const {
    const EventTableContents& c = model_->contents();
    std::set<size_t> rows;
    for (const QItemSelectionRange& range : view_->selectionModel()->selection())
        for (int r = range.top(); r <= range.bottom() && rows.size() < kCopyLimit; ++r) rows.insert(size_t(r));
    std::vector<size_t> list(rows.begin(), rows.end());
    if (list.empty())
        for (size_t r = 0; r < std::min(c.size(), kCopyLimit); ++r) list.push_back(r);
    return qs(eventTableTsv(c, visibleFields(), list));
}

void EventsPanel::exportCsv(const QString& path) {
    EventTableContents contents = model_->contents();
    const std::vector<EventField> fields = visibleFields();
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, path] {
        watcher->deleteLater();
        emit exported(path, watcher->result());
    });
    watcher->setFuture(
        QtConcurrent::run(workPool(), [contents = std::move(contents), fields, file = path.toStdString()] {
            std::string error;
            return writeEventTableCsv(contents, fields, file, &error) ? QString() : QString::fromStdString(error);
        }));
}

}  // namespace lanescope
