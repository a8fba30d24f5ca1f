#include "app/gui/panels/criticalpath/CriticalPathPanel.h"

#include <QAbstractTableModel>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QPainter>
#include <QShortcut>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <stdexcept>

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
    void setPath(std::shared_ptr<const Report> report, const CriticalPath* path) {
        beginResetModel();
        report_ = std::move(report);
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
                return qs(formatDuration(s.start_ns[i] - report_->meta.begin_ns, 6));
            case 1:
                return qs(formatDuration(s.end_ns[i] - s.start_ns[i]));
            case 2:
                return qs(pathCategoryName(s.category[i]));
            case 3:
                return pathNameText(segmentName({report_.get()}, *path_, i));
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
    std::shared_ptr<const Report> report_;
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

CriticalPathPanel::CriticalPathPanel(ViewSession* session, QWidget* parent) : QWidget(parent), session_(session) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    summary_ = new QLabel("No report open");
    showOnTimeline_ = new QCheckBox("Show on timeline");
    showOnTimeline_->setChecked(true);
    showOnTimeline_->setToolTip("Outline the path on the timeline, the rest dimmed");
    auto* top = new QHBoxLayout;
    top->addWidget(summary_, 1);
    top->addWidget(showOnTimeline_);
    layout->addLayout(top);
    bar_ = new PathCategoryBar;
    layout->addWidget(bar_);
    names_ = new QTableWidget(0, 4);
    names_->setHorizontalHeaderLabels({"Category", "Name", "Time", "Share"});
    names_->verticalHeader()->hide();
    names_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    names_->setSelectionBehavior(QAbstractItemView::SelectRows);
    names_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    names_->setAlternatingRowColors(true);
    names_->setWordWrap(false);  // a kernel's long name on one line, elided
    names_->setTextElideMode(Qt::ElideMiddle);
    names_->setToolTip("The names the path spends most time in, with their share of the path");
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
    split->addWidget(names_);
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
    connect(showOnTimeline_, &QCheckBox::toggled, this, [this] { updateOverlay(); });
    connect(session_, &ViewSession::reportsChanged, this, [this] {
        path_.reset();  // of reports no longer open as they were
        segments_->setPath(nullptr, nullptr);
        updateOverlay();
        recompute();
    });
    connect(session_, &ViewSession::selectionChanged, this, [this] { recompute(); });
}

void CriticalPathPanel::computeNow() {
    const auto& open = session_->reports();
    if (open.empty()) {
        task_.cancel();
        showOutcome({std::nullopt, "No report open"});
        return;
    }
    const std::optional<ViewEvent> event = session_->selectedEvent();
    const int report = event && event->report >= 0 && size_t(event->report) < open.size() ? event->report : 0;
    std::shared_ptr<const Report> r = open[size_t(report)];
    CriticalPathOptions options;
    if (const std::optional<TimeInterval> range = session_->selectedRange()) {
        const int64_t offset = session_->offset(report);  // the range is on the shared timeline
        options.range = std::make_pair(range->first - offset, range->second - offset);
    }
    summary_->setText("Computing…");
    task_.run(
        [r, options] {
            Outcome outcome;
            try {
                outcome.path = computeCriticalPath({r.get()}, options);
            } catch (const std::invalid_argument& e) {
                outcome.error = e.what();
            }
            return outcome;
        },
        [this, r, report](Outcome outcome) {
            shown_ = r;
            report_ = report;
            showOutcome(std::move(outcome));
        });
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
    const auto& open = session_->reports();
    const bool current = path_ && shown_ && size_t(report_) < open.size() && open[size_t(report_)] == shown_;
    if (!current || !showOnTimeline_->isChecked() || !isVisible()) {
        timeline->clearPathOverlay();
        return;
    }
    const PathSegments& s = path_->segments;
    PathOverlay overlay;
    overlay.report.assign(s.size(), report_);
    overlay.lane.assign(s.lane.begin(), s.lane.end());
    overlay.event.assign(s.event.begin(), s.event.end());
    overlay.start_ns = s.start_ns;  // one report: its own timeline (offsets_ns are 0)
    overlay.end_ns = s.end_ns;
    overlay.item.resize(s.size());
    for (size_t i = 0; i < s.size(); ++i) overlay.item[i] = s.event[i] >= 0 ? 1 : 0;
    timeline->setPathOverlay(std::move(overlay));
}

void CriticalPathPanel::showOutcome(Outcome outcome) {
    segments_->setPath(nullptr, nullptr);
    path_ = std::move(outcome.path);
    names_->setRowCount(0);
    updateOverlay();
    if (!path_) {
        bar_->setTotals({}, 0);
        summary_->setText(outcome.error.empty() ? QString("No path") : qs(outcome.error));
        return;
    }
    const int64_t length = path_->end_ns - path_->begin_ns;
    const int64_t begin = shown_->meta.begin_ns;
    summary_->setText(QString("Critical path of %1 – %2: %3, %4 segments")
                          .arg(qs(formatDuration(path_->begin_ns - begin, 6)))
                          .arg(qs(formatDuration(path_->end_ns - begin, 6)))
                          .arg(qs(formatDuration(length)))
                          .arg(path_->segments.size()));
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
    segments_->setPath(shown_, &*path_);
    segmentsView_->resizeColumnsToContents();
}

void CriticalPathPanel::activateSegment(int row) {
    if (!path_ || row < 0 || size_t(row) >= path_->segments.size()) return;
    // The reports changed since the path was computed (its new one is on its way): stay put.
    const auto& open = session_->reports();
    if (size_t(report_) >= open.size() || open[size_t(report_)] != shown_) return;
    const PathSegments& s = path_->segments;
    const size_t i = size_t(row);
    if (segmentsView_->currentIndex().row() != row) segmentsView_->setCurrentIndex(segments_->index(row, 0));
    segmentsView_->scrollTo(segments_->index(row, 0));
    const int64_t offset = session_->offset(report_);  // to the shared timeline
    const int64_t start = s.start_ns[i] + offset, end = s.end_ns[i] + offset;
    const int64_t margin = std::max<int64_t>((end - start) / 5, 1000);
    session_->zoomTo(start - margin, end + margin);
    if (s.event[i] >= 0 && s.lane[i] >= 0)
        session_->selectEvent(ViewEvent{report_, uint32_t(s.lane[i]), uint32_t(s.event[i])});
}

void CriticalPathPanel::step(int delta) {
    if (!path_ || path_->segments.size() == 0) return;
    const int current = segmentsView_->currentIndex().row();
    const int last = int(path_->segments.size()) - 1;
    const int row = current < 0 ? (delta > 0 ? 0 : last) : std::clamp(current + delta, 0, last);
    activateSegment(row);
}

}  // namespace lanescope
