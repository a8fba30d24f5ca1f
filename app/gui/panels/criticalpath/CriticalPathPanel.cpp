#include "app/gui/panels/criticalpath/CriticalPathPanel.h"

#include <QAbstractTableModel>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "timeline/NumberFormat.h"
#include "timeline/QtText.h"
#include "timeline/TimeFormat.h"

namespace lanescope {

// A segment's or total's name; a CPU gap outside any NVTX range or operator has none.
static QString pathNameText(std::string_view name) { return name.empty() ? QString("(no range)") : qs(name); }

// The segments of a path, their cells made when the view asks for them (a long step has
// tens of thousands). Columns: Start (from the report's begin), Duration, Category, Name, Lane.
class PathSegmentModel : public QAbstractTableModel {
public:
    using QAbstractTableModel::QAbstractTableModel;
    // `reports`: the path's reports, in its order (PathSegments::report); Start is from the
    // first one's begin (the path's timeline is the first report's).
    void setPath(std::vector<const Report*> reports, const CriticalPath* path) {
        beginResetModel();
        reports_ = std::move(reports);
        path_ = path;
        endResetModel();
    }
    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() || !path_ ? 0 : int(path_->segments.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : 5; }
    QVariant data(const QModelIndex& index, int role) const override {
        if (!index.isValid() || !path_ || size_t(index.row()) >= path_->segments.size()) return {};
        const size_t i = size_t(index.row());
        const PathSegments& s = path_->segments;
        if (role == Qt::TextAlignmentRole)
            return index.column() < 2 ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
        if (role == Qt::DecorationRole && index.column() == 2) return PathCategoryBar::colour(s.category[i]);
        if (role == Qt::ToolTipRole && index.column() == 3) return data(index, Qt::DisplayRole);
        if (role != Qt::DisplayRole) return {};
        switch (index.column()) {
            case 0:
                return qs(formatDuration(s.start_ns[i] - reports_[0]->meta.begin_ns, 6));
            case 1:
                return qs(formatDuration(s.end_ns[i] - s.start_ns[i]));
            case 2:
                return qs(pathCategoryName(s.category[i]));
            case 3:
                return pathNameText(segmentName(reports_, *path_, i)) + collectiveText(i);
            case 4:
                return s.lane_label[i] < path_->lane_labels.size() ? qs(path_->lane_labels[s.lane_label[i]])
                                                                   : QString();
            default:
                return {};
        }
    }
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override {
        static const char* const columns[] = {"Start", "Duration", "Category", "Name", "Lane"};
        if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= 5) return {};
        return QString(columns[section]);
    }

private:
    // " · 4 MiB, busbw 40.514 GB/s" for a collective whose size its report records, else "".
    QString collectiveText(size_t segment) const {
        const auto& all = path_->collectives;
        const auto c = std::lower_bound(all.begin(), all.end(), segment,
                                        [](const PathCollective& p, size_t s) { return p.segment < s; });
        if (c == all.end() || c->segment != segment) return {};
        QString text = " · " + qs(formatBytes(c->size_bytes));
        if (!std::isnan(c->busbw_gbps)) text += QString(", busbw %1 GB/s").arg(c->busbw_gbps, 0, 'f', 3);
        return text;
    }

    std::vector<const Report*> reports_;
    const CriticalPath* path_ = nullptr;
};

namespace {

constexpr int kPathBarHeight = 22;
constexpr int kPathLegendRow = 18;

QString pathShareText(int64_t ns, int64_t length) {
    const double percent = length > 0 ? 100.0 * double(ns) / double(length) : 0.0;
    return QString("%1 (%2%)").arg(qs(formatDuration(ns))).arg(percent, 0, 'f', 1);
}

}  // namespace

PathCategoryBar::PathCategoryBar(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setFixedHeight(kPathBarHeight + 8);
    setToolTip("Time on the critical path by category");
}

QColor PathCategoryBar::colour(PathCategory category) {
    // Distinct hues, readable beside both light and dark text.
    static const QColor colours[kPathCategoryCount] = {
        QColor(0x3b, 0x82, 0xd6),  // Kernel
        QColor(0xe6, 0x9f, 0x00),  // Memcpy
        QColor(0xcc, 0x79, 0xa7),  // Memset
        QColor(0x56, 0xb4, 0xe9),  // CUDA graph
        QColor(0x9b, 0x59, 0xb6),  // Communication
        QColor(0x2e, 0xa0, 0x6b),  // CUDA API
        QColor(0x8c, 0x6d, 0x46),  // OS runtime
        QColor(0x6c, 0x7a, 0x89),  // MPI
        QColor(0xa8, 0xb4, 0x3c),  // CPU
        QColor(0xe0, 0x6c, 0x4c),  // Launch latency
        QColor(0xd6, 0x3a, 0x3a),  // Sync latency
        QColor(0x7f, 0x7f, 0x7f),  // Wait for rank
    };
    return colours[size_t(category)];
}

void PathCategoryBar::setTotals(const std::array<int64_t, kPathCategoryCount>& totals, int64_t length_ns) {
    totals_ = totals;
    length_ = length_ns;
    fitHeight();
    update();
}

std::vector<PathCategoryBar::LegendItem> PathCategoryBar::layoutLegend(int width) const {
    std::vector<LegendItem> items;
    const QFontMetrics fm = fontMetrics();
    int x = 0, y = kPathBarHeight + 6;
    for (size_t c = 0; c < kPathCategoryCount; ++c) {
        if (totals_[c] <= 0) continue;
        const PathCategory category = PathCategory(c);
        const QString text = qs(pathCategoryName(category)) + "  " + pathShareText(totals_[c], length_);
        const int w = 12 + 6 + fm.horizontalAdvance(text) + 16;
        if (x > 0 && x + w > width) {
            x = 0;
            y += kPathLegendRow;
        }
        items.push_back({QRect(x, y, w, kPathLegendRow), category, text});
        x += w;
    }
    return items;
}

void PathCategoryBar::fitHeight() {
    const std::vector<LegendItem> items = layoutLegend(std::max(width(), 100));
    const int h = items.empty() ? kPathBarHeight + 8 : items.back().rect.bottom() + 4;
    if (h != height()) setFixedHeight(h);
}

void PathCategoryBar::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitHeight();
}

void PathCategoryBar::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QRect bar(0, 2, width() - 1, kPathBarHeight);
    p.setPen(palette().color(QPalette::Mid));
    p.setBrush(palette().color(QPalette::Base));
    p.drawRect(bar);
    if (length_ <= 0) return;
    // Each category from its cumulative start, so rounding never leaves a gap or overruns.
    int64_t before = 0;
    const double scale = double(bar.width()) / double(length_);
    for (size_t c = 0; c < kPathCategoryCount; ++c) {
        if (totals_[c] <= 0) continue;
        const int x0 = bar.left() + int(double(before) * scale + 0.5);
        before += totals_[c];
        const int x1 = bar.left() + int(double(before) * scale + 0.5);
        if (x1 > x0) p.fillRect(QRect(x0, bar.top() + 1, x1 - x0, bar.height() - 1), colour(PathCategory(c)));
    }
    p.setPen(palette().color(QPalette::WindowText));
    for (const LegendItem& item : layoutLegend(width())) {
        const QRect swatch(item.rect.left(), item.rect.top() + (kPathLegendRow - 12) / 2, 12, 12);
        p.fillRect(swatch, colour(item.category));
        p.drawText(QRect(swatch.right() + 7, item.rect.top(), item.rect.width() - 18, kPathLegendRow),
                   Qt::AlignLeft | Qt::AlignVCenter, item.text);
    }
}

namespace {

// A name as a regex that matches it whole.
std::string exactNameRegex(std::string_view name) {
    std::string out;
    for (char c : name) {
        if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
        out += c;
    }
    return out;
}

// The reports look like the ranks of one job: each has NCCL collectives or MPI calls.
bool looksLikeRanks(const std::vector<std::shared_ptr<const Report>>& open) {
    if (open.size() < 2) return false;
    return std::all_of(open.begin(), open.end(), [](const std::shared_ptr<const Report>& r) {
        return std::any_of(r->lanes.begin(), r->lanes.end(), [](const Lane& lane) {
            return (lane.kind == LaneKind::Nccl || lane.kind == LaneKind::Mpi) && lane.events.size() > 0;
        });
    });
}

// The selected event when it is an NVTX range, PyTorch operator or step of a thread: its own
// times and thread.
std::optional<OwnedRange> selectedNamingRange(const ViewSession& session) {
    const std::optional<ViewEvent> event = session.selectedEvent();
    const auto& open = session.reports();
    if (!event || event->report < 0 || size_t(event->report) >= open.size()) return std::nullopt;
    const Report& report = *open[size_t(event->report)];
    if (event->lane >= report.lanes.size()) return std::nullopt;
    const Lane& lane = report.lanes[event->lane];
    if ((lane.kind != LaneKind::Nvtx && lane.kind != LaneKind::NvtxStartEnd) || lane.thread < 0 ||
        event->event >= lane.events.size() || lane.events.kind[event->event] != EventKind::NvtxRange)
        return std::nullopt;
    return OwnedRange{lane.events.start_ns[event->event], lane.events.endNs(event->event), lane.thread};
}

// The path spends most of its time in one blocking call name (a wait for another thread, whose
// wake-up is not a dependency the path can follow): that name and its time; nullopt otherwise.
std::optional<PathNameTotal> mostlyBlocked(const CriticalPath& path) {
    static constexpr std::string_view kBlocking[] = {"pthread_cond_wait",
                                                     "pthread_cond_timedwait",
                                                     "sem_wait",
                                                     "sem_timedwait",
                                                     "futex",
                                                     "poll",
                                                     "epoll_wait",
                                                     "select",
                                                     "pthread_join"};
    const int64_t length = path.end_ns - path.begin_ns;
    if (path.by_name.empty() || length <= 0) return std::nullopt;
    const PathNameTotal& top = path.by_name.front();
    if (top.category != PathCategory::OsRuntime || 3 * top.ns < length) return std::nullopt;
    for (std::string_view name : kBlocking)
        if (top.name == name) return top;
    return std::nullopt;
}

std::vector<const Report*> rawReports(const std::vector<std::shared_ptr<const Report>>& reports) {
    std::vector<const Report*> raw;
    for (const auto& r : reports) raw.push_back(r.get());
    return raw;
}

// The top names of a path in words: "a 31.0%, b 12.5%, c 3.1%".
QString topNamesText(const std::vector<PathNameTotal>& names, int64_t length, size_t count) {
    QStringList parts;
    for (size_t i = 0; i < names.size() && i < count; ++i)
        parts << QString("%1 %2%")
                     .arg(pathNameText(names[i].name))
                     .arg(length > 0 ? 100.0 * double(names[i].ns) / double(length) : 0.0, 0, 'f', 1);
    return parts.join(", ");
}

}  // namespace

CriticalPathPanel::CriticalPathPanel(ViewSession* session, QWidget* parent) : QWidget(parent), session_(session) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    summary_ = new QLabel("No report open");
    acrossRanks_ = new QCheckBox("All open ranks");
    acrossRanks_->setToolTip(
        "One path through every open report, as the ranks of one job aligned by their "
        "collectives; else the path of the selected event's report");
    acrossRanks_->setVisible(false);
    showOnTimeline_ = new QCheckBox("Show on timeline");
    showOnTimeline_->setChecked(true);
    showOnTimeline_->setToolTip("Outline the path on the timeline, the rest dimmed");
    auto* top = new QHBoxLayout;
    top->addWidget(summary_, 1);
    top->addWidget(acrossRanks_);
    top->addWidget(showOnTimeline_);
    layout->addLayout(top);
    bar_ = new PathCategoryBar;
    layout->addWidget(bar_);
    names_ = new QTableWidget(0, 4);
    names_->setHorizontalHeaderLabels({"Category", "Name", "Time", "Share"});
    names_->verticalHeader()->hide();
    names_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    names_->setSelectionBehavior(QAbstractItemView::SelectRows);
    names_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    names_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    names_->setAlternatingRowColors(true);
    names_->setWordWrap(false);  // a kernel's long name on one line, elided
    names_->setTextElideMode(Qt::ElideMiddle);
    names_->setToolTip(
        "The names the path spends most time in, with their share of the path. "
        "Select some (Ctrl, Shift) to ask what if they were faster");

    // What if: the selected names a factor faster.
    whatIfFactor_ = new QDoubleSpinBox;
    whatIfFactor_->setRange(0.01, 1000.0);
    whatIfFactor_->setDecimals(2);
    whatIfFactor_->setValue(2.0);
    whatIfFactor_->setSuffix("× faster");
    whatIfFactor_->setToolTip("How many times faster the selected names' items become (0.5: twice as slow)");
    whatIfButton_ = new QPushButton("What if");
    whatIfButton_->setToolTip(
        "Replay the step with the selected names' kernels, calls and operations faster; "
        "gaps (CPU, latencies) keep their length");
    whatIfAnswer_ = new QLabel("Select names above, then ask what if they were faster");
    whatIfAnswer_->setWordWrap(true);
    whatIfAnswer_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    whatIfBar_ = new PathCategoryBar;
    whatIfBar_->setToolTip("Time on the path by category, what if");
    whatIfBar_->setVisible(false);
    auto* whatIfRow = new QHBoxLayout;
    whatIfRow->addWidget(new QLabel("Selected names"));
    whatIfRow->addWidget(whatIfFactor_);
    whatIfRow->addWidget(whatIfButton_);
    whatIfRow->addStretch(1);
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(names_, 1);
    leftLayout->addLayout(whatIfRow);
    leftLayout->addWidget(whatIfAnswer_);
    leftLayout->addWidget(whatIfBar_);

    segments_ = new PathSegmentModel(this);
    segmentsView_ = new QTableView;
    segmentsView_->setModel(segments_);
    segmentsView_->horizontalHeader()->setStretchLastSection(true);
    segmentsView_->horizontalHeader()->setResizeContentsPrecision(40);
    segmentsView_->verticalHeader()->hide();
    segmentsView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    segmentsView_->setSelectionMode(QAbstractItemView::SingleSelection);
    segmentsView_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    segmentsView_->setAlternatingRowColors(true);
    segmentsView_->setWordWrap(false);
    segmentsView_->setTextElideMode(Qt::ElideMiddle);
    segmentsView_->setToolTip("Click or Enter: go to the segment. N, Shift+N: the next, previous segment");
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(left);
    split->addWidget(segmentsView_);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    layout->addWidget(split, 1);

    connect(segmentsView_, &QTableView::clicked, this,
            [this](const QModelIndex& index) { activateSegment(index.row()); });
    connect(segmentsView_, &QTableView::activated, this,
            [this](const QModelIndex& index) { activateSegment(index.row()); });
    auto* next = new QShortcut(QKeySequence(Qt::Key_N), this);
    next->setContext(Qt::WidgetWithChildrenShortcut);
    connect(next, &QShortcut::activated, this, [this] { step(1); });
    auto* previous = new QShortcut(QKeySequence(Qt::SHIFT | Qt::Key_N), this);
    previous->setContext(Qt::WidgetWithChildrenShortcut);
    connect(previous, &QShortcut::activated, this, [this] { step(-1); });
    connect(whatIfButton_, &QPushButton::clicked, this, [this] { whatIf(); });
    connect(whatIfFactor_, &QDoubleSpinBox::editingFinished, this, [this] {
        if (!names_->selectionModel()->selectedRows().isEmpty()) whatIf();
    });
    connect(showOnTimeline_, &QCheckBox::toggled, this, [this] { updateOverlay(); });
    connect(acrossRanks_, &QCheckBox::toggled, this, [this] { recompute(); });
    connect(session_, &ViewSession::reportsChanged, this, [this] { reportsChanged(); });
    connect(session_, &ViewSession::selectionChanged, this, [this] { recompute(); });
    // A step or NVTX range picked on the timeline is the path's range (a segment's event never is one).
    connect(session_, &ViewSession::eventSelected, this, [this] {
        if (!session_->selectedRange() && selectedNamingRange(*session_)) recompute();
    });
}

void CriticalPathPanel::reportsChanged() {
    path_.reset();  // of reports no longer open as they were
    segments_->setPath({}, nullptr);
    clearWhatIf("Select names above, then ask what if they were faster");
    const auto& open = session_->reports();
    const QSignalBlocker quiet(acrossRanks_);
    acrossRanks_->setVisible(open.size() > 1);
    acrossRanks_->setChecked(looksLikeRanks(open));
    updateOverlay();
    recompute();
}

std::optional<CriticalPathPanel::Request> CriticalPathPanel::request() const {
    const auto& open = session_->reports();
    if (open.empty()) return std::nullopt;
    Request r;
    if (open.size() > 1 && acrossRanks_->isChecked()) {
        r.reports = open;
        for (size_t i = 0; i < open.size(); ++i) r.indexes.push_back(int(i));
    } else {
        const std::optional<ViewEvent> event = session_->selectedEvent();
        const int report = event && event->report >= 0 && size_t(event->report) < open.size() ? event->report : 0;
        r.reports = {open[size_t(report)]};
        r.indexes = {report};
    }
    // The range is on the shared timeline; the path's timeline is its first report's own.
    if (const std::optional<TimeInterval> range = session_->selectedRange()) {
        const int64_t offset = session_->offset(r.indexes[0]);
        r.options.range = std::make_pair(range->first - offset, range->second - offset);
    } else if (const std::optional<OwnedRange> named = selectedNamingRange(*session_)) {
        // A step or NVTX range: its times, and its thread as the owner when it is of the first report.
        const int report = session_->selectedEvent()->report;
        const int64_t offset = session_->offset(report) - session_->offset(r.indexes[0]);
        r.options.range = std::make_pair(named->begin_ns + offset, named->end_ns + offset);
        if (report == r.indexes[0]) r.options.owner_thread = named->thread;
        const ViewEvent e = *session_->selectedEvent();
        const Report& rep = *session_->reports()[size_t(e.report)];
        r.what = qs(rep.str(rep.lanes[e.lane].events.name_id[e.event]));
    }
    return r;
}

bool CriticalPathPanel::stillOpen() const {
    const auto& open = session_->reports();
    if (shown_.empty()) return false;
    for (size_t k = 0; k < shown_.size(); ++k)
        if (size_t(shownIndexes_[k]) >= open.size() || open[size_t(shownIndexes_[k])] != shown_[k]) return false;
    return true;
}

void CriticalPathPanel::computeNow() {
    std::optional<Request> r = request();
    if (!r) {
        task_.cancel();
        whatIfTask_.cancel();
        showOutcome({std::nullopt, "No report open"});
        return;
    }
    summary_->setText("Computing…");
    whatIfTask_.cancel();
    clearWhatIf("Select names above, then ask what if they were faster");
    task_.run(
        [reports = r->reports, options = r->options] {
            Outcome outcome;
            try {
                outcome.path = computeCriticalPath(rawReports(reports), options);
            } catch (const std::invalid_argument& e) {
                outcome.error = e.what();
            }
            return outcome;
        },
        [this, reports = r->reports, indexes = r->indexes, what = r->what](Outcome outcome) {
            shown_ = reports;
            shownIndexes_ = indexes;
            shownWhat_ = what;
            showOutcome(std::move(outcome));
        });
}

void CriticalPathPanel::whatIf() {
    if (!path_ || !stillOpen()) return;
    // The picked names whose items can be faster: kernels, calls, operations (not the gaps).
    std::vector<std::string> names;
    for (const QModelIndex& row : names_->selectionModel()->selectedRows()) {
        const size_t i = size_t(row.row());
        if (i < path_->by_name.size() && path_->by_name[i].category < PathCategory::Cpu)
            names.push_back(exactNameRegex(path_->by_name[i].name));
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    if (names.empty()) {
        clearWhatIf("Select kernels, calls or operations in the names table: gaps (CPU, latencies) keep their length");
        return;
    }
    std::string regex = "^(?:";
    for (size_t i = 0; i < names.size(); ++i) regex += (i ? "|" : "") + names[i];
    regex += ")$";
    CriticalPathOptions options;
    options.range = std::make_pair(path_->begin_ns, path_->end_ns);  // the path's own range
    options.what_if.push_back({regex, whatIfFactor_->value()});
    whatIfAnswer_->setText("Computing…");
    whatIfTask_.run(
        [reports = shown_, options] {
            Outcome outcome;
            try {
                outcome.path = computeCriticalPath(rawReports(reports), options);
            } catch (const std::exception& e) {  // std::regex_error of a name too long for it
                outcome.error = e.what();
            }
            return outcome;
        },
        [this](Outcome outcome) { showWhatIf(std::move(outcome)); });
}

void CriticalPathPanel::clearWhatIf(const QString& text) {
    whatIfPath_.reset();
    whatIfAnswer_->setText(text);
    whatIfBar_->setTotals({}, 0);
    whatIfBar_->setVisible(false);
}

void CriticalPathPanel::showWhatIf(Outcome outcome) {
    if (!outcome.path || !outcome.path->what_if_length_ns || !path_) {
        clearWhatIf(outcome.error.empty() ? QString("No answer") : qs(outcome.error));
        return;
    }
    whatIfPath_ = std::move(outcome.path);
    const int64_t before = path_->end_ns - path_->begin_ns;
    const int64_t after = *whatIfPath_->what_if_length_ns;
    const double change = before > 0 ? 100.0 * double(after - before) / double(before) : 0.0;
    whatIfAnswer_->setText(QString("The path: %1 → %2 (%3%4%). It then goes through %5")
                               .arg(qs(formatDuration(before)))
                               .arg(qs(formatDuration(after)))
                               .arg(change > 0 ? "+" : "")
                               .arg(change, 0, 'f', 1)
                               .arg(topNamesText(whatIfPath_->what_if_by_name, after, 3)));
    whatIfBar_->setTotals(whatIfPath_->what_if_by_category, after);
    whatIfBar_->setVisible(true);
}

void CriticalPathPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    updateOverlay();
}

void CriticalPathPanel::hideEvent(QHideEvent* event) {
    QWidget::hideEvent(event);
    updateOverlay();
}

void CriticalPathPanel::updateOverlay() {
    TimelineView* timeline = session_->timeline();
    if (!timeline) return;
    if (!path_ || !stillOpen() || !showOnTimeline_->isChecked() || !isVisible()) {
        timeline->clearPathOverlay();
        return;
    }
    const PathSegments& s = path_->segments;
    PathOverlay overlay;
    overlay.report.resize(s.size());
    overlay.start_ns.resize(s.size());
    overlay.end_ns.resize(s.size());
    overlay.item.resize(s.size());
    overlay.lane.assign(s.lane.begin(), s.lane.end());
    overlay.event.assign(s.event.begin(), s.event.end());
    for (size_t i = 0; i < s.size(); ++i) {
        // Back to the report's own timeline: the path's alignment offset taken off.
        const int64_t offset = path_->offsets_ns[s.report[i]];
        overlay.report[i] = shownIndexes_[s.report[i]];
        overlay.start_ns[i] = s.start_ns[i] - offset;
        overlay.end_ns[i] = s.end_ns[i] - offset;
        overlay.item[i] = s.event[i] >= 0 ? 1 : 0;
    }
    timeline->setPathOverlay(std::move(overlay));
}

void CriticalPathPanel::showOutcome(Outcome outcome) {
    segments_->setPath({}, nullptr);
    path_ = std::move(outcome.path);
    names_->setRowCount(0);
    updateOverlay();
    if (!path_) {
        bar_->setTotals({}, 0);
        summary_->setText(outcome.error.empty() ? QString("No path") : qs(outcome.error));
        return;
    }
    const int64_t length = path_->end_ns - path_->begin_ns;
    const int64_t begin = shown_[0]->meta.begin_ns;
    QString text = QString("Critical path of %1%2 – %3: %4, %5 segments")
                       .arg(shownWhat_.isEmpty() ? QString() : shownWhat_ + ", ")
                       .arg(qs(formatDuration(path_->begin_ns - begin, 6)))
                       .arg(qs(formatDuration(path_->end_ns - begin, 6)))
                       .arg(qs(formatDuration(length)))
                       .arg(path_->segments.size());
    if (shown_.size() > 1) {
        std::vector<uint8_t> crossed(shown_.size(), 0);
        for (uint16_t r : path_->segments.report) crossed[r] = 1;
        text +=
            QString(" through %1 of %2 ranks").arg(std::count(crossed.begin(), crossed.end(), 1)).arg(shown_.size());
    }
    if (const std::optional<PathNameTotal> blocked = mostlyBlocked(*path_))
        text += QString(
                    ". %1% of it is %2: a thread waiting for another, whose wake-up the path cannot follow; "
                    "look at what the other threads did meanwhile")
                    .arg(100.0 * double(blocked->ns) / double(length), 0, 'f', 0)
                    .arg(qs(blocked->name));
    summary_->setText(text);
    summary_->setWordWrap(true);
    summary_->setToolTip(path_->notes.empty() ? QString() : qs(path_->notes.front()));
    bar_->setTotals(path_->by_category, length);
    names_->setRowCount(int(path_->by_name.size()));
    for (size_t i = 0; i < path_->by_name.size(); ++i) {
        const PathNameTotal& n = path_->by_name[i];
        auto cell = [&](int column, const QString& text, bool number) {
            auto* item = new QTableWidgetItem(text);
            if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (column == 0) item->setData(Qt::DecorationRole, PathCategoryBar::colour(n.category));
            if (column == 1) item->setToolTip(text);
            names_->setItem(int(i), column, item);
        };
        const double percent = length > 0 ? 100.0 * double(n.ns) / double(length) : 0.0;
        cell(0, qs(pathCategoryName(n.category)), false);
        cell(1, pathNameText(n.name), false);
        cell(2, qs(formatDuration(n.ns)), true);
        cell(3, QString("%1%").arg(percent, 0, 'f', 1), true);
    }
    names_->resizeColumnToContents(0);
    names_->resizeColumnToContents(2);
    names_->resizeColumnToContents(3);
    segments_->setPath(rawReports(shown_), &*path_);
    segmentsView_->resizeColumnsToContents();
}

void CriticalPathPanel::activateSegment(int row) {
    if (!path_ || row < 0 || size_t(row) >= path_->segments.size()) return;
    // The reports changed since the path was computed (its new one is on its way): stay put.
    if (!stillOpen()) return;
    const PathSegments& s = path_->segments;
    const size_t i = size_t(row);
    if (segmentsView_->currentIndex().row() != row) segmentsView_->setCurrentIndex(segments_->index(row, 0));
    segmentsView_->scrollTo(segments_->index(row, 0));
    // From the path's timeline to the report's own, then to the shared one.
    const int report = shownIndexes_[s.report[i]];
    const int64_t offset = session_->offset(report) - path_->offsets_ns[s.report[i]];
    const int64_t start = s.start_ns[i] + offset, end = s.end_ns[i] + offset;
    const int64_t margin = std::max<int64_t>((end - start) / 5, 1000);
    session_->zoomTo(start - margin, end + margin);
    if (s.event[i] >= 0 && s.lane[i] >= 0)
        session_->selectEvent(ViewEvent{report, uint32_t(s.lane[i]), uint32_t(s.event[i])});
}

void CriticalPathPanel::step(int delta) {
    if (!path_ || path_->segments.size() == 0) return;
    const int current = segmentsView_->currentIndex().row();
    const int last = int(path_->segments.size()) - 1;
    const int row = current < 0 ? (delta > 0 ? 0 : last) : std::clamp(current + delta, 0, last);
    activateSegment(row);
}

}  // namespace lanescope
