#include "app/gui/MainWindow.h"

#include <spdlog/spdlog.h>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTableView>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <map>
#include <thread>

#include "app/gui/Theme.h"
#include "app/gui/ViewSession.h"
#include "app/gui/WhenShown.h"
#include "app/gui/WorkPool.h"
#include "app/gui/bars/FindBar.h"
#include "app/gui/bars/LoadingBar.h"
#include "app/gui/bars/NoticeBar.h"
#include "app/gui/details/CollectiveDetailsHtml.h"
#include "app/gui/details/EventDetailsHtml.h"
#include "app/gui/details/ReportSummary.h"
#include "app/gui/dialogs/AboutDialog.h"
#include "app/gui/dialogs/ShortcutsOverlay.h"
#include "app/gui/import/ImportQueue.h"
#include "app/gui/import/NvtxOnGpuLanes.h"
#include "app/gui/panels/calltree/CallTreePanel.h"
#include "app/gui/panels/communication/CommunicationPanel.h"
#include "app/gui/panels/criticalpath/CriticalPathPanel.h"
#include "app/gui/panels/diagnostics/DiagnosticsPanel.h"
#include "app/gui/panels/diff/DiffPanel.h"
#include "app/gui/panels/events/EventsPanel.h"
#include "app/gui/panels/gaps/GapsPanel.h"
#include "app/gui/panels/pytorch/PytorchPanel.h"
#include "app/gui/panels/query/QueryPanel.h"
#include "app/gui/panels/ranks/ComparePanel.h"
#include "app/gui/panels/rules/RulesPanel.h"
#include "app/gui/panels/statistics/StatsPanel.h"
#include "app/gui/panels/utilization/UtilizationChart.h"
#include "exporters/perfetto/PerfettoWriter.h"
#include "importers/MemoryEstimate.h"
#include "model/Correlation.h"
#include "timeline/TimeFormat.h"

namespace lanescope {

MainWindow::MainWindow() {
    setWindowTitle("Lanescope");
    setAcceptDrops(true);
    timeline_ = new TimelineView;
    // The "NVTX on GPU" rows, which the import adds deferred: projected when first shown, or
    // read back from what an earlier open of the same file kept.
    timeline_->setDeferredLaneBuilder([](const Report& report, size_t lane) {
        return nvtxOnGpuLanes(report, lane, std::max(1u, std::thread::hardware_concurrency()));
    });
    timeline_->setProjectedSourceReader(keptNvtxOnGpuSource);
    session_ = new ViewSession(this);
    session_->attach(timeline_);
    imports_ = new ImportQueue(this);
    useModelCache(QSettings().value("cache/keepModels", true).toBool());
    rowFilter_ = new QLineEdit;
    rowFilter_->setPlaceholderText("Filter rows: text, or /regex/");
    rowFilter_->setClearButtonEnabled(true);
    rowFilter_->setToolTip("Show only rows whose name matches (and their groups); /…/ for a regular expression");
    findBar_ = new FindBar(session_);
    findBar_->hide();
    shortcuts_ = new ShortcutsOverlay(this);  // over the whole window: room for one column

    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto* filterRow = new QWidget;
    auto* filterLayout = new QHBoxLayout(filterRow);
    filterLayout->setContentsMargins(6, 4, 6, 4);
    filterLayout->addWidget(rowFilter_, 0);
    rowFilter_->setMaximumWidth(268);
    filterLayout->addStretch(1);
    layout->addWidget(filterRow);
    notice_ = new NoticeBar;
    layout->addWidget(notice_);
    loading_ = new LoadingBar;
    layout->addWidget(loading_);
    layout->addWidget(timeline_, 1);
    layout->addWidget(findBar_);
    setCentralWidget(central);
    connectImports();

    connect(rowFilter_, &QLineEdit::textChanged, this, [this](const QString& text) {
        const bool regex = text.size() >= 2 && text.startsWith('/') && text.endsWith('/');
        timeline_->rows().setFilter(regex ? text.mid(1, text.size() - 2) : text, regex);
        rowFilter_->setStyleSheet(timeline_->rows().filterValid() ? "" : "color: #c0392b");
        timeline_->rowsChanged();
    });
    connect(session_, &ViewSession::eventSelected, this, &MainWindow::showDetails);
    connect(timeline_, &TimelineView::instantSelected, this, [this](std::optional<ViewInstant> instant) {
        if (!instant) return;
        const Report& report = *reports()[size_t(instant->report)];
        details_->setHtml(instantDetailsHtml(report, {instant->lane, instant->instant}));
    });
    connect(session_, &ViewSession::selectionChanged, this, [this] { updateStatus(); });
    connect(session_, &ViewSession::visibleRangeChanged, this, [this] { updateStatus(); });
    connect(session_, &ViewSession::markersChanged, this, &MainWindow::updateMarkers);

    buildDocks();
    buildMenus();
    rangeLabel_ = new QLabel;
    statusBar()->addPermanentWidget(diagnostics_->messagesButton());
    statusBar()->addPermanentWidget(diagnostics_->statusButton());
    statusBar()->addPermanentWidget(rangeLabel_);
    statusBar()->showMessage("Ready");

    QSettings settings;
    if (!restoreGeometry(settings.value("window/geometry").toByteArray())) resize(1400, 900);
    restoreState(settings.value("window/state").toByteArray());
    compare_->setMode(parseAlignMode(settings.value("ranks/align").toString().toStdString()).value_or(AlignMode::Auto));
}

MainWindow::~MainWindow() = default;

void MainWindow::showDetails(std::optional<ViewEvent> event) {
    if (!event) {
        QString html;
        if (compare_->fromSummaries()) html += rankSummariesHtml(*compare_->summaries());
        for (const auto& r : reports()) html += reportSummaryHtml(*r);
        details_->setHtml(html);
        timeline_->setLinkedEvents({});
        return;
    }
    const Report& report = *reports()[size_t(event->report)];
    const EventRef ref{event->lane, event->event};
    // An NCCL kernel's size and bandwidths; its wait when the Communication panel holds the open ranks'.
    details_->setHtml(eventDetailsHtml(report, ref) +
                      collectiveDetailsHtml(report, ref, communication_->currentAnalysis(), event->report));
    // The launching CUDA call of a GPU operation, or the GPU work a call launched.
    std::vector<ViewEvent> linked;
    if (const CorrelationIndex* correlation = session_->correlation(event->report)) {
        if (auto launcher = correlation->launcherOf(ref))
            linked.push_back({event->report, launcher->lane, launcher->index});
        for (const EventRef& op : correlation->launchedBy(ref)) linked.push_back({event->report, op.lane, op.index});
    }
    timeline_->setLinkedEvents(linked);
}

void MainWindow::updateStatus() {
    if (reports().empty()) {  // nothing open, or only rows still loading: no times yet
        rangeLabel_->clear();
        return;
    }
    const auto [begin, end] = session_->visibleRange();
    QString text = QString("view %1").arg(QString::fromStdString(formatDuration(end - begin, 4)));
    if (const auto range = session_->selectedRange())
        text += QString("   selection %1").arg(QString::fromStdString(formatDuration(range->second - range->first, 4)));
    rangeLabel_->setText(text);
}

void MainWindow::updateMarkers() {
    const QSignalBlocker block(markers_);
    markers_->clear();
    const auto origin = session_->wholeRange().first;
    for (const TimeMarker& m : session_->markers()) {
        auto* item = new QListWidgetItem(m.name, markers_);
        item->setFlags(item->flags() | Qt::ItemIsEditable);
        item->setToolTip(QString("at %1").arg(QString::fromStdString(formatDuration(m.time_ns - origin, 6))));
    }
}

const std::vector<std::shared_ptr<const Report>>& MainWindow::reports() const { return session_->reports(); }

void MainWindow::closeEvent(QCloseEvent* event) {
    saveRowPresets();
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    event->accept();
}

bool MainWindow::shownPanelsReady() const {
    auto ready = [](const QWidget* panel, bool done) { return !onScreen(panel) || done; };
    return ready(stats_, stats_->shownTableReady()) && ready(gaps_, !gaps_->busy()) &&
           ready(criticalPath_, !criticalPath_->busy()) && ready(communication_, !communication_->busy()) &&
           ready(rules_, !rules_->busy()) && ready(utilization_, !utilization_->busy()) &&
           ready(compare_, !compare_->busy()) && ready(diff_, !diff_->busy()) && ready(events_, !events_->busy()) &&
           ready(callTree_, !callTree_->busy()) && ready(query_, !query_->busy()) && ready(pytorch_, pytorch_->ready());
}

}  // namespace lanescope
