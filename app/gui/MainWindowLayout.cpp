// The main window's docks, menus and row order presets (the rest: MainWindow.cpp, MainWindowFiles.cpp).
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
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTableView>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <map>

#include "app/gui/MainWindow.h"
#include "app/gui/Theme.h"
#include "app/gui/ViewSession.h"
#include "app/gui/WorkPool.h"
#include "app/gui/bars/FindBar.h"
#include "app/gui/bars/NoticeBar.h"
#include "app/gui/details/EventDetailsHtml.h"
#include "app/gui/details/ReportSummary.h"
#include "app/gui/dialogs/AboutDialog.h"
#include "app/gui/dialogs/ShortcutsOverlay.h"
#include "app/gui/import/ImportQueue.h"
#include "app/gui/panels/calltree/CallTreePanel.h"
#include "app/gui/panels/communication/BusbwColouring.h"
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
#include "timeline/NumberFormat.h"
#include "timeline/QtText.h"
#include "timeline/TimeFormat.h"

namespace lanescope {
namespace {

QString orderName(RowOrder order) { return order == RowOrder::CpuFirst ? "cpu-first" : "gpu-first"; }

}  // namespace

void MainWindow::buildDocks() {
    details_ = new QTextBrowser;
    details_->setOpenLinks(false);
    details_->setHtml(noReportHtml());
    auto* detailsDock = new QDockWidget("Details", this);
    detailsDock->setObjectName("details");
    detailsDock->setWidget(details_);
    addDockWidget(Qt::RightDockWidgetArea, detailsDock);

    markers_ = new QListWidget;
    markers_->setToolTip(
        "Markers (Ctrl+M drops one at the cursor). Double-click to jump, F2 to rename, Delete to remove.");
    markers_->setEditTriggers(QAbstractItemView::EditKeyPressed);
    connect(markers_, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        const int index = markers_->row(item);
        if (index >= 0 && index < int(session_->markers().size()) && item->text() != session_->markers()[index].name)
            session_->renameMarker(index, item->text());
    });
    auto* removeMarker = new QAction("Remove marker", markers_);
    removeMarker->setShortcut(QKeySequence::Delete);
    removeMarker->setShortcutContext(Qt::WidgetShortcut);
    connect(removeMarker, &QAction::triggered, this, [this] { session_->removeMarker(markers_->currentRow()); });
    markers_->addAction(removeMarker);
    markers_->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(markers_, &QListWidget::itemDoubleClicked, this, [this](QListWidgetItem* item) {
        const int index = markers_->row(item);
        const int64_t t = session_->markers()[index].time_ns;
        const int64_t half = (session_->visibleRange().second - session_->visibleRange().first) / 2;
        session_->zoomTo(t - half, t + half);
    });
    auto* markersDock = new QDockWidget("Markers", this);
    markersDock->setObjectName("markers");
    markersDock->setWidget(markers_);
    addDockWidget(Qt::RightDockWidgetArea, markersDock);
    stats_ = new StatsPanel(session_);
    auto* statsDock = new QDockWidget("Statistics", this);
    statsDock->setObjectName("statistics");
    statsDock->setWidget(stats_);
    addDockWidget(Qt::BottomDockWidgetArea, statsDock);
    connect(stats_, &StatsPanel::showInstances, this,
            [this](int report, const QString& pattern) { findBar_->findLongest(pattern, report); });
    auto addBottom = [this, statsDock](QWidget* panel, const QString& title, const QString& name) {
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(name);
        dock->setWidget(panel);
        addDockWidget(Qt::BottomDockWidgetArea, dock);
        tabifyDockWidget(statsDock, dock);
    };
    events_ = new EventsPanel(session_);
    addBottom(events_, "Events", "events");
    connect(timeline_, &TimelineView::deferredLanesBuilt, events_, &EventsPanel::deferredLanesBuilt);
    gaps_ = new GapsPanel(session_);
    rules_ = new RulesPanel(session_);
    utilization_ = new UtilizationChart(session_);
    addBottom(gaps_, "GPU gaps", "gaps");
    criticalPath_ = new CriticalPathPanel(session_);
    addBottom(criticalPath_, "Critical path", "criticalpath");
    communication_ = new CommunicationPanel(session_);
    addBottom(communication_, "Communication", "communication");
    busbwColouring_ = new BusbwColouring(session_, this);
    connect(busbwColouring_, &BusbwColouring::applied, this, [this] {
        if (!busbwColouring_->enabled()) return;
        const auto& range = busbwColouring_->range();
        statusBar()->showMessage(
            range ? QString("NCCL kernels by busbw, log scale: dark purple %1B/s … yellow %2B/s")
                        .arg(qs(formatCounterValue(range->first * 1e9)), qs(formatCounterValue(range->second * 1e9)))
                  : QString("No NCCL kernel of the open reports has a size, so none has a bus bandwidth to colour"),
            10000);
    });
    addBottom(rules_, "Rules", "rules");
    addBottom(utilization_, "GPU utilization", "utilization");
    compare_ = new ComparePanel(session_);
    diff_ = new DiffPanel(session_);
    addBottom(compare_, "Ranks", "ranks");
    addBottom(diff_, "Diff", "diff");
    diagnostics_ = new DiagnosticsPanel;
    addBottom(diagnostics_, "Diagnostics", "diagnostics");
    callTree_ = new CallTreePanel(session_);
    addBottom(callTree_, "Call tree", "callTree");
    query_ = new QueryPanel(session_);
    addBottom(query_, "Query", "query");
    pytorch_ = new PytorchPanel(session_);
    addBottom(pytorch_, "PyTorch", "pytorch");
    connect(pytorch_, &PytorchPanel::showInstances, this,
            [this](int report, const QString& pattern) { findBar_->findLongest(pattern, report); });
    connect(diagnostics_, &DiagnosticsPanel::showRequested, this, [this] {
        if (auto* dock = findChild<QDockWidget*>("diagnostics")) {
            dock->show();
            dock->raise();
        }
    });
    connect(session_, &ViewSession::reportsChanged, diagnostics_, [this] {
        diagnostics_->setReports(reports());
        notice_->setReports(reports());
    });
    connect(notice_, &NoticeBar::detailsRequested, diagnostics_, [this] { diagnostics_->messagesButton()->click(); });
    connect(compare_, &ComparePanel::openReportRequested, this, [this](const QString& path) { openFiles({path}); });
    // Written only when the mode changed: the panel realigns on every report added, and each
    // write of the settings waits for the disk (fdatasync of their lock file): 245 ms on the GUI
    // thread once, opening the 20 M-range report while the disk was busy writing.
    connect(compare_, &ComparePanel::alignmentChanged, this, [this] {
        const QString mode = alignModeName(compare_->mode());
        QSettings settings;
        if (settings.value("ranks/align").toString() != mode) settings.setValue("ranks/align", mode);
    });
    connect(diff_, &DiffPanel::showInstances, this,
            [this](int report, const QString& pattern) { findBar_->findLongest(pattern, report); });
    statsDock->raise();
    resizeDocks({statsDock}, {260}, Qt::Vertical);
    resizeDocks({detailsDock, markersDock}, {420, 140}, Qt::Vertical);
    resizeDocks({detailsDock}, {380}, Qt::Horizontal);
}

void MainWindow::showQuery(const QString& sql) {
    if (auto* dock = findChild<QDockWidget*>("query")) {
        dock->show();
        dock->raise();
        // The editor and the rows side by side want more than the other panels' height.
        if (dock->height() < height() * 2 / 5) resizeDocks({dock}, {height() * 2 / 5}, Qt::Vertical);
    }
    query_->editor()->setFocus();
    if (!sql.isEmpty()) query_->runWhenOpen(sql);
}

void MainWindow::showPytorch(const QString& view) {
    if (auto* dock = findChild<QDockWidget*>("pytorch")) {
        dock->show();
        dock->raise();
        // A chart beside a table wants more than the other panels' height.
        if (dock->height() < height() * 2 / 5) resizeDocks({dock}, {height() * 2 / 5}, Qt::Vertical);
    }
    if (!view.isEmpty()) pytorch_->showView(view);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu("&File");
    file->addAction("&Open…", QKeySequence::Open, this, &MainWindow::openDialog)->setStatusTip("Open profiler reports");
    file->addAction("Open rank &summaries…", QKeySequence("Ctrl+Shift+O"), this, &MainWindow::openSummariesDialog)
        ->setStatusTip(
            "Compare the ranks of a job from their summaries (lanescope-cli summarize): pick a summary folder, or "
            "a folder holding them");
    recentMenu_ = file->addMenu("Open &Recent");
    updateRecentMenu();
    file->addAction("&Close", QKeySequence::Close, this, &MainWindow::closeReports)
        ->setStatusTip("Close all reports and rank summaries");
    file->addSeparator();
    file->addAction("&Export timeline as PNG…", QKeySequence("Ctrl+E"), this, &MainWindow::exportPng);
    file->addAction("Export to &Perfetto…", this, &MainWindow::exportPerfetto)
        ->setStatusTip("Write the report as a Perfetto trace (.pftrace) for ui.perfetto.dev");
    file->addAction("Open with nsys e&xport…", this,
                    [this] {
                        const QStringList paths =
                            QFileDialog::getOpenFileNames(this, "Open Nsight Systems reports through nsys export",
                                                          QSettings().value("files/lastDir").toString(),
                                                          "Nsight Systems reports (*.nsys-rep *.qdrep)");
                        if (!paths.isEmpty()) openFiles(paths, NsysReader::NsysExport);
                    })
        ->setStatusTip("Convert .nsys-rep reports with the installed Nsight Systems instead of reading them directly");
    file->addAction("Set path to &nsys…", this, &MainWindow::chooseNsys)
        ->setStatusTip("The Nsight Systems command line used by Open with nsys export");
    file->addAction("&Memory limit for opening…", this, &MainWindow::chooseMemoryLimit)
        ->setStatusTip("How much memory reports being opened may take before they are refused");
    QAction* keepModels = file->addAction("&Keep opened reports for fast reopening");
    keepModels->setCheckable(true);
    keepModels->setChecked(QSettings().value("cache/keepModels", true).toBool());
    keepModels->setStatusTip("Save each report's model in " + QString::fromStdString(ReportCache().dir().string()) +
                             " (at most 4 GiB, oldest dropped first) so that it reopens in a fraction of its import");
    connect(keepModels, &QAction::toggled, this, &MainWindow::useModelCache);
    file->addSeparator();
    file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);

    QMenu* view = menuBar()->addMenu("&View");
    view->addAction("&Find…", QKeySequence::Find, findBar_, &FindBar::activate);
    view->addAction("Find &next", QKeySequence::FindNext, findBar_, &FindBar::next);
    view->addAction("Find &previous", QKeySequence::FindPrevious, findBar_, &FindBar::previous);
    view->addAction("&Events table", QKeySequence("Ctrl+Shift+E"), this,
                    [this] {
                        if (auto* dock = findChild<QDockWidget*>("events")) {
                            dock->show();
                            dock->raise();
                            events_->view()->setFocus();
                        }
                    })
        ->setStatusTip("The events of the picked rows in the selected range, one column per field");
    view->addSeparator();
    view->addAction("Fit &all", QKeySequence("Home"), session_, &ViewSession::fitAll);
    view->addAction("Fit &selection", QKeySequence("F"), session_, &ViewSession::fitSelection);
    view->addAction("Zoom &back", QKeySequence("Backspace"), session_, &ViewSession::back);
    view->addAction("Add &marker", QKeySequence("Ctrl+M"), this, [this] {
        const QPoint cursor = timeline_->mapFromGlobal(QCursor::pos());
        const bool inside = cursor.x() > timeline_->headerWidth() && timeline_->rect().contains(cursor);
        const auto [begin, end] = session_->visibleRange();
        session_->addMarker(inside ? timeline_->timeAt(cursor.x()) : begin + (end - begin) / 2);
    });
    view->addAction("&Call tree", QKeySequence("Ctrl+Shift+T"), this,
                    [this] {
                        if (auto* dock = findChild<QDockWidget*>("callTree")) {
                            dock->show();
                            dock->raise();
                            callTree_->setFocus();
                        }
                    })
        ->setStatusTip("CPU samples of the selection as top-down and bottom-up trees, a flat list and a flame graph");
    view->addAction("Critical pat&h", QKeySequence("Ctrl+Shift+K"), this,
                    [this] {
                        if (auto* dock = findChild<QDockWidget*>("criticalpath")) {
                            dock->show();
                            dock->raise();
                            // The bar above two tables wants more than the other panels' height.
                            if (dock->height() < height() * 2 / 5)
                                resizeDocks({dock}, {height() * 2 / 5}, Qt::Vertical);
                            criticalPath_->segmentsView()->setFocus();
                        }
                        criticalPath_->recompute();
                    })
        ->setStatusTip("The chain of CPU calls, GPU work and gaps that sets the selected range's length");
    view->addAction("Co&mmunication", QKeySequence("Ctrl+Shift+M"), this,
                    [this] {
                        if (auto* dock = findChild<QDockWidget*>("communication")) {
                            dock->show();
                            dock->raise();
                            // Tables beside a chart want more than the other panels' height.
                            if (dock->height() < height() * 2 / 5)
                                resizeDocks({dock}, {height() * 2 / 5}, Qt::Vertical);
                            communication_->collectivesView()->setFocus();
                        }
                        communication_->recompute();
                    })
        ->setStatusTip("NCCL collectives: sizes, bus bandwidth, overlap with compute, waits across ranks");
    view->addAction("&Query (SQL)", QKeySequence("Ctrl+Shift+Q"), this, [this] { showQuery(); })
        ->setStatusTip("SQL over the report, with the tables of an nsys SQLite export");
    view->addAction("&PyTorch views", QKeySequence("Ctrl+Shift+P"), this, [this] { showPytorch(); })
        ->setStatusTip(
            "A PyTorch trace's overview, operators, kernels, memory and modules, as TensorBoard's profiler showed "
            "them");
    view->addSeparator();
    rowOrder_ = new QActionGroup(this);
    const QString defaultOrder = QSettings().value("rows/order", "gpu-first").toString();
    for (const auto& entry :
         {std::pair{"&GPU rows first", RowOrder::GpuFirst}, std::pair{"&CPU rows first", RowOrder::CpuFirst}}) {
        const RowOrder value = entry.second;  // a plain variable: clang 14 cannot capture a structured binding
        QAction* a = view->addAction(entry.first, this, [this, value] {
            setRowOrder(value);
            QSettings().setValue("rows/order", orderName(value));  // the default for formats not seen yet
            saveRowPresets();
        });
        a->setCheckable(true);
        a->setChecked(orderName(value) == defaultOrder);
        a->setData(orderName(value));
        a->setStatusTip("Row order, remembered per report format (Nsight SQLite, .nsys-rep, PyTorch, Perfetto)");
        rowOrder_->addAction(a);
    }
    view->addAction("Show all &rows", this, [this] {
        timeline_->rows().showAll();
        timeline_->rowsChanged();
    });
    QAction* byBusbw = view->addAction("Colour NCCL by &bus bandwidth");
    byBusbw->setCheckable(true);
    byBusbw->setStatusTip(
        "NCCL kernels with a size drawn from dark purple (the lowest busbw of the open reports) to yellow (the "
        "highest), on a log scale; kernels without one keep their colour");
    connect(byBusbw, &QAction::toggled, busbwColouring_, &BusbwColouring::setEnabled);
    view->addSeparator();
    buildThemeMenu(view);
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());

    QMenu* help = menuBar()->addMenu("&Help");
    QAction* keys = help->addAction("&Keyboard shortcuts", shortcuts_, &ShortcutsOverlay::popUp);
    keys->setShortcuts({QKeySequence(Qt::Key_F1), QKeySequence(Qt::Key_Question)});
    keys->setStatusTip("Every key and mouse gesture, over the window (? or F1)");
    help->addAction("&About Lanescope", this, [this] { showAbout(this); })
        ->setStatusTip("Version, the libraries in use, where the log is");
    help->addAction("About &Qt", qApp, &QApplication::aboutQt);
}

void MainWindow::buildThemeMenu(QMenu* view) {
    QMenu* menu = view->addMenu("&Theme");
    auto* group = new QActionGroup(this);
    for (const auto& entry :
         {std::pair{"&System", Theme::System}, std::pair{"&Light", Theme::Light}, std::pair{"&Dark", Theme::Dark}}) {
        const Theme theme = entry.second;
        QAction* a = menu->addAction(entry.first, this, [theme] {
            applyTheme(theme);
            saveTheme(theme);
            spdlog::info("theme {}", themeName(theme).toStdString());
        });
        a->setCheckable(true);
        a->setChecked(theme == currentTheme());
        a->setStatusTip("Colours of the window and the timeline (remembered)");
        group->addAction(a);
    }
}

void MainWindow::setRowOrder(RowOrder order) {
    timeline_->rows().setOrder(order);
    timeline_->rowsChanged();
    for (QAction* a : rowOrder_->actions()) a->setChecked(a->data().toString() == orderName(order));
}

void MainWindow::applyRowPreset(int row, const Report& report, bool collapse) {
    QSettings settings;
    const QString format = qs(report.meta.format);
    // One order for the whole timeline: the first report's preset, kept as more reports join.
    const QString order =
        row == 0 || !rowOrder_->checkedAction()
            ? settings.value("rows/" + format + "/order", settings.value("rows/order", "gpu-first")).toString()
            : rowOrder_->checkedAction()->data().toString();
    setRowOrder(order == orderName(RowOrder::CpuFirst) ? RowOrder::CpuFirst : RowOrder::GpuFirst);
    const QStringList collapsed =
        collapse ? settings.value("rows/" + format + "/collapsed").toStringList() : QStringList();
    for (const LayoutRow& shown : timeline_->rows().rows())
        if (shown.level == 0 && shown.report == row)
            for (const QString& below : collapsed)
                timeline_->rows().setExpanded(shown.key + below.toStdString(), false);
    timeline_->rowsChanged();
}

const Report& MainWindow::shownReport(int row) const {
    return size_t(row) < reports().size() ? *reports()[size_t(row)]
                                          : *placeholders_[size_t(row) - reports().size()].rows;
}

void MainWindow::saveRowPresets() {
    QSettings settings;
    const QString order = rowOrder_->checkedAction() ? rowOrder_->checkedAction()->data().toString() : "gpu-first";
    std::map<QString, QStringList> collapsedByFormat;  // row keys below the report row
    for (const LayoutRow& row : timeline_->rows().rows()) {
        if (row.level != 0) continue;
        QStringList& collapsed = collapsedByFormat[qs(shownReport(row.report).meta.format)];
        for (const std::string& key : timeline_->rows().collapsed())
            if (key.starts_with(row.key) && (key.size() == row.key.size() || key[row.key.size()] == '/'))
                collapsed << qs(key.substr(row.key.size()));
    }
    for (const auto& [format, collapsed] : collapsedByFormat) {
        settings.setValue("rows/" + format + "/order", order);
        settings.setValue("rows/" + format + "/collapsed", collapsed);
    }
}

}  // namespace lanescope
