#include "app/gui/panels/calltree/CallTreePanel.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTabBar>
#include <QTimer>
#include <QVBoxLayout>
#include <map>

#include "app/gui/panels/calltree/CallTreeView.h"
#include "app/gui/panels/calltree/FlameGraph.h"
#include "timeline/QtText.h"
#include "timeline/TimeFormat.h"

namespace lanescope {
namespace {

QString count(uint64_t n) { return QLocale().toString(qulonglong(n)); }

const char* const kHint = "Double-click a function (or press Enter) to mark its samples on the timeline";

}  // namespace

CallTreePanel::CallTreePanel(ViewSession* session, QWidget* parent) : QWidget(parent), session_(session) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(3);
    auto* top = new QHBoxLayout;
    tabs_ = new QTabBar;
    tabs_->setObjectName("callTreeViews");
    tabs_->setDrawBase(false);
    tabs_->setExpanding(false);
    for (const char* name : {"Top-down", "Bottom-up", "Flat", "Flame graph"}) tabs_->addTab(name);
    tabs_->setTabToolTip(TopDown,
                         "From the outermost frames inwards: a function's children are the functions it called");
    tabs_->setTabToolTip(BottomUp,
                         "From the functions the samples were in outwards: a function's children are its callers");
    tabs_->setTabToolTip(Flat, "One row per function: Self = samples in it, Total = samples with it on the stack");
    tabs_->setTabToolTip(
        Flame, "The top-down tree as nested bars, width = share of the samples; click to zoom, Esc to zoom out");
    threads_ = new QComboBox;
    threads_->setObjectName("callTreeThreads");
    threads_->setToolTip("Threads or process whose samples are counted");
    threads_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    threads_->setMaximumWidth(420);
    search_ = new QLineEdit;
    search_->setPlaceholderText("Search functions");
    search_->setClearButtonEnabled(true);
    search_->setToolTip("Show only the paths to functions containing this text (case-insensitive), highlighted");
    search_->setMaximumWidth(260);
    scope_ = new QLabel("No report");
    reportChoice_ = new QComboBox;
    reportChoice_->setToolTip("Report whose samples are shown");
    reportChoice_->hide();
    top->addWidget(tabs_);
    top->addSpacing(8);
    top->addWidget(threads_);
    top->addWidget(search_, 1);
    top->addWidget(scope_, 1);
    top->addWidget(reportChoice_);
    layout->addLayout(top);

    pages_ = new QStackedWidget;
    for (int v = 0; v < Flame; ++v) {
        models_[v] = new CallTreeModel(this);
        trees_[v] = new CallTreeView(models_[v]);
        trees_[v]->setObjectName(QStringList{"topDownTree", "bottomUpTree", "flatList"}[v]);
        if (v == Flat) trees_[v]->setRootIsDecorated(false);
        // Trees open sorted by Total, the flat list by Self, as the analysis orders them.
        trees_[v]->header()->setSortIndicator(v == Flat ? CallTreeModel::Self : CallTreeModel::Total,
                                              Qt::DescendingOrder);
        connect(trees_[v], &CallTreeView::frameActivated, this, &CallTreePanel::toggleSamplesOf);
        connect(trees_[v], &CallTreeView::clearRequested, this, &CallTreePanel::clearMarkedSamples);
        pages_->addWidget(trees_[v]);
    }
    flame_ = new FlameGraph;
    flameScroll_ = new QScrollArea;
    flameScroll_->setWidget(flame_);
    flameScroll_->setWidgetResizable(true);
    flameScroll_->setFrameShape(QFrame::NoFrame);
    pages_->addWidget(flameScroll_);
    connect(flame_, &FlameGraph::frameActivated, this, &CallTreePanel::toggleSamplesOf);
    connect(flame_, &FlameGraph::clearRequested, this, &CallTreePanel::clearMarkedSamples);
    layout->addWidget(pages_, 1);
    status_ = new QLabel(kHint);
    status_->setObjectName("callTreeStatus");
    status_->setEnabled(false);  // drawn as a quiet hint until samples are marked
    layout->addWidget(status_);

    searchDelay_ = new QTimer(this);
    searchDelay_->setSingleShot(true);
    searchDelay_->setInterval(200);
    connect(searchDelay_, &QTimer::timeout, this, &CallTreePanel::applySearch);
    connect(search_, &QLineEdit::textChanged, searchDelay_, qOverload<>(&QTimer::start));
    connect(tabs_, &QTabBar::currentChanged, pages_, &QStackedWidget::setCurrentIndex);
    connect(threads_, &QComboBox::currentIndexChanged, this, &CallTreePanel::recompute);
    connect(reportChoice_, &QComboBox::currentIndexChanged, this, [this] {
        clearMarkedSamples();
        fillThreadPicker();
        recompute();
    });
    connect(session, &ViewSession::reportsChanged, this, &CallTreePanel::setReports);
    connect(session, &ViewSession::offsetsChanged, this, [this] {
        if (range_) recompute();
    });
    connect(session, &ViewSession::selectionChanged, this, [this](std::optional<TimeInterval> range) {
        range_ = range;
        recompute();
    });
    if (TimelineView* timeline = session->timeline())
        connect(timeline, &TimelineView::markedSamplesCleared, this, [this] {
            marked_.reset();
            markTask_.cancel();
            showMarkStatus(0);
        });
}

CallTreePanel::View CallTreePanel::view() const { return View(tabs_->currentIndex()); }
void CallTreePanel::setView(View view) { tabs_->setCurrentIndex(view); }
CallTreeModel* CallTreePanel::model(View view) const { return view < Flame ? models_[view] : nullptr; }
CallTreeView* CallTreePanel::treeView(View view) const { return view < Flame ? trees_[view] : nullptr; }

int CallTreePanel::reportIndex() const {
    const int i = reportChoice_->currentIndex();
    return i >= 0 && i < int(reports_.size()) ? i : -1;
}

void CallTreePanel::setReports() {
    reports_ = session_->reports();
    range_.reset();
    marked_.reset();
    markTask_.cancel();
    showMarkStatus(0);
    {
        const QSignalBlocker block(reportChoice_);
        reportChoice_->clear();
        for (const auto& r : reports_) reportChoice_->addItem(QFileInfo(qs(r->meta.source_path)).fileName());
        // The last report opened with samples, else the last one.
        int pick = int(reports_.size()) - 1;
        for (int i = pick; i >= 0; --i)
            if (finishedCounts(*reports_[size_t(i)]).cpu_samples) {
                pick = i;
                break;
            }
        reportChoice_->setCurrentIndex(pick);
        reportChoice_->setVisible(reports_.size() > 1);
    }
    fillThreadPicker();
    recompute();
}

void CallTreePanel::fillThreadPicker() {
    const QSignalBlocker block(threads_);
    threads_->clear();
    choices_.clear();
    const int index = reportIndex();
    if (index < 0) return;
    const Report& r = *reports_[size_t(index)];
    // Samples per thread, threads grouped by process (by pid), busiest first within each.
    std::map<int32_t, uint64_t> perThread;
    uint64_t all = 0;
    for (const Lane& lane : r.lanes)
        if (lane.kind == LaneKind::CpuSamples && lane.thread >= 0) {
            perThread[lane.thread] += lane.instants.size();
            all += lane.instants.size();
        }
    threads_->addItem(QString("All threads (%1 samples)").arg(count(all)));
    choices_.push_back({});
    std::map<int64_t, std::vector<std::pair<uint64_t, int32_t>>> byProcess;
    for (const auto& [thread, samples] : perThread) {
        const Thread& t = r.threads[size_t(thread)];
        const int64_t pid = t.process >= 0 ? r.processes[size_t(t.process)].pid : -1;
        byProcess[pid].emplace_back(samples, thread);
    }
    for (auto& [pid, threads] : byProcess) {
        std::sort(threads.begin(), threads.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        uint64_t samples = 0;
        for (const auto& entry : threads) samples += entry.first;
        const int32_t process = r.threads[size_t(threads.front().second)].process;
        const QString name = process >= 0 ? qs(r.str(r.processes[size_t(process)].name_id)) : QString("Process");
        if (byProcess.size() > 1 || threads.size() > 1) {
            threads_->addItem(QString("%1 (%2): all threads, %3 samples").arg(name).arg(pid).arg(count(samples)));
            choices_.push_back({{}, {pid}});
        }
        for (const auto& [n, thread] : threads) {
            const Thread& t = r.threads[size_t(thread)];
            threads_->addItem(QString("    %1 (%2), %3 samples").arg(qs(r.str(t.name_id))).arg(t.tid).arg(count(n)));
            choices_.push_back({{t.tid}, {pid}});
        }
    }
}

SampleSelection CallTreePanel::selection() const {
    SampleSelection s;
    const int index = reportIndex();
    const int64_t offset = session_->offset(index);
    if (range_) s.range = TimeRange{range_->first - offset, range_->second - offset};
    const int choice = threads_->currentIndex();
    if (choice > 0 && choice < int(choices_.size())) {
        s.tids = choices_[size_t(choice)].tids;
        s.pids = choices_[size_t(choice)].pids;
    }
    return s;
}

void CallTreePanel::computeNow() {
    const int index = reportIndex();
    if (index < 0) {
        task_.cancel();
        scope_->setText("No report");
        display({});
        return;
    }
    std::shared_ptr<const Report> report = reports_[size_t(index)];
    const SampleSelection sel = selection();
    scope_->setText(range_ ? QString("Selection of %1").arg(qs(formatDuration(range_->second - range_->first)))
                           : QString("Whole report"));
    task_.run(
        [report, sel] {
            const StackCounts counts = countSamples(*report, sel);
            Result r;
            r.samples = counts.samples;
            r.withoutStack = counts.without_stack;
            r.topDown = CallTree::fromRows(topDownTree(*report, counts), counts.samples);
            r.bottomUp = CallTree::fromRows(bottomUpTree(*report, counts), counts.samples);
            std::vector<CallTreeRow> flat;
            for (const FlatProfileRow& row : flatProfile(*report, counts))
                flat.push_back({0, row.frame, row.self, row.total});
            r.flat = CallTree::fromRows(std::move(flat), counts.samples);
            return r;
        },
        [this](Result result) { display(std::move(result)); });
}

void CallTreePanel::display(Result result) {
    const int index = reportIndex();
    std::shared_ptr<const Report> report = index >= 0 ? reports_[size_t(index)] : nullptr;
    QString scope = range_ ? QString("Selection of %1").arg(qs(formatDuration(range_->second - range_->first)))
                           : QString("Whole report");
    scope += QString(": %1 samples").arg(count(result.samples));
    if (result.withoutStack) scope += QString(" (%1 without a stack)").arg(count(result.withoutStack));
    if (report) scope_->setText(scope);
    flame_->setTree(report, result.topDown.rows, result.samples);
    models_[TopDown]->setTree(report, std::move(result.topDown));
    models_[BottomUp]->setTree(report, std::move(result.bottomUp));
    models_[Flat]->setTree(report, std::move(result.flat));
    for (CallTreeView* tree : trees_) {
        if (!search_->text().isEmpty())
            tree->expandMatches();
        else
            tree->expandHottestPath();
    }
    if (marked_) {  // the same function over the new selection
        const uint32_t frame = *marked_;
        marked_.reset();
        toggleSamplesOf(frame);
    }
    emit updated();
}

void CallTreePanel::setSearch(const QString& text) {
    const QSignalBlocker block(search_);
    search_->setText(text);
    applySearch();
}

void CallTreePanel::applySearch() {
    searchDelay_->stop();
    const QString text = search_->text().trimmed();
    flame_->setSearch(text);
    for (int v = 0; v < Flame; ++v) {
        models_[v]->setSearch(text);
        if (text.isEmpty())
            trees_[v]->expandHottestPath();
        else
            trees_[v]->expandMatches();
    }
    // No function matches: said in red, as the row filter says a bad pattern.
    search_->setStyleSheet(!text.isEmpty() && models_[Flat]->rowCount() == 0 ? "color: #c0392b" : "");
}

void CallTreePanel::toggleSamplesOf(uint32_t frame) {
    const int index = reportIndex();
    TimelineView* timeline = session_->timeline();
    if (index < 0 || marked_ == frame) {
        clearMarkedSamples();
        return;
    }
    marked_ = frame;
    std::shared_ptr<const Report> report = reports_[size_t(index)];
    markTask_.run([report, sel = selection(), frame] { return samplesWithFrame(*report, sel, frame); },
                  [this, index, timeline](std::vector<LaneSamples> lanes) {
                      std::vector<MarkedSamples> marks;
                      uint64_t n = 0;
                      for (LaneSamples& lane : lanes) {
                          n += lane.instants.size();
                          marks.push_back({index, lane.lane, std::move(lane.instants)});
                      }
                      if (timeline) timeline->setMarkedSamples(std::move(marks));
                      showMarkStatus(n);
                      emit marksChanged();
                  });
}

void CallTreePanel::clearMarkedSamples() {
    const bool had = marked_.has_value();
    marked_.reset();
    markTask_.cancel();
    if (TimelineView* timeline = session_->timeline()) timeline->setMarkedSamples({});
    showMarkStatus(0);
    if (had) emit marksChanged();
}

void CallTreePanel::showMarkStatus(uint64_t n) {
    const int index = reportIndex();
    if (!marked_ || index < 0) {
        status_->setText(kHint);
        status_->setEnabled(false);
        return;
    }
    const Report& r = *reports_[size_t(index)];
    status_->setEnabled(true);
    status_->setText(QString("%1 samples of <b>%2</b> marked on the timeline (orange ticks in the CPU samples rows). "
                             "Esc or double-click it again to clear.")
                         .arg(count(n), qs(r.str(r.stacks.frame_function[*marked_])).toHtmlEscaped()));
}

}  // namespace lanescope
