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
#include <QProgressDialog>
#include <QSettings>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTableView>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <map>

#include "app/gui/AboutDialog.h"
#include "app/gui/CallTreePanel.h"
#include "app/gui/ComparePanel.h"
#include "app/gui/DiagnosticsPanel.h"
#include "app/gui/DiffPanel.h"
#include "app/gui/EventDetailsHtml.h"
#include "app/gui/EventsPanel.h"
#include "app/gui/FindBar.h"
#include "app/gui/GapsPanel.h"
#include "app/gui/ImportQueue.h"
#include "app/gui/NoticeBar.h"
#include "app/gui/ReportSummary.h"
#include "app/gui/RulesPanel.h"
#include "app/gui/ShortcutsOverlay.h"
#include "app/gui/StatsPanel.h"
#include "app/gui/Theme.h"
#include "app/gui/UtilizationChart.h"
#include "app/gui/ViewSession.h"
#include "app/gui/WorkPool.h"
#include "exporters/perfetto/PerfettoWriter.h"
#include "importers/MemoryEstimate.h"
#include "model/Correlation.h"
#include "timeline/TimeFormat.h"

namespace lanescope {
namespace {

constexpr int kMaxRecent = 10;
const char* kFileFilter =
    "Profiler reports (*.sqlite *.nsys-rep *.qdrep);;Nsight Systems SQLite export (*.sqlite);;"
    "Nsight Systems report (*.nsys-rep *.qdrep);;All files (*)";

QString qs(const std::string& s) { return QString::fromStdString(s); }

// The Details panel with rank summaries open: what they are, and where their reports are.
QString rankSummariesHtml(const SummarySet& set) {
    constexpr qsizetype kListed = 64;
    QString html = QString(
                       "<h3>%1 rank summaries</h3><p>Compared in the Ranks panel. A summary holds no timeline: "
                       "double-click a rank there to open its full report.</p><table cellspacing=4>"
                       "<tr><th align=left>Rank</th><th align=left>Report</th></tr>")
                       .arg(set.size());
    for (qsizetype i = 0; i < qsizetype(set.size()) && i < kListed; ++i) {
        const RankInput& in = set.inputs[size_t(i)];
        html += QString("<tr><td>%1</td><td>%2</td></tr>")
                    .arg(qs(in.label).toHtmlEscaped(),
                         set.reports[i].isEmpty() ? qs(in.source_path).toHtmlEscaped() + " <i>(not on this machine)</i>"
                                                  : set.reports[i].toHtmlEscaped());
    }
    html += "</table>";
    if (qsizetype(set.size()) > kListed) html += QString("<p>… and %1 more</p>").arg(qsizetype(set.size()) - kListed);
    return html;
}

QString orderName(RowOrder order) { return order == RowOrder::CpuFirst ? "cpu-first" : "gpu-first"; }

}  // namespace

MainWindow::MainWindow() {
    setWindowTitle("Lanescope");
    setAcceptDrops(true);
    timeline_ = new TimelineView;
    session_ = new ViewSession(this);
    session_->attach(timeline_);
    imports_ = new ImportQueue(this);
    connectImports();
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
    layout->addWidget(timeline_, 1);
    layout->addWidget(findBar_);
    setCentralWidget(central);

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

void MainWindow::buildDocks() {
    details_ = new QTextBrowser;
    details_->setOpenLinks(false);
    details_->setHtml("<h3>No report open</h3><p>Open one with File &gt; Open (Ctrl+O), or drop it here.</p>");
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
    gaps_ = new GapsPanel(session_);
    rules_ = new RulesPanel(session_);
    utilization_ = new UtilizationChart(session_);
    addBottom(gaps_, "GPU gaps", "gaps");
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
    connect(compare_, &ComparePanel::alignmentChanged, this,
            [this] { QSettings().setValue("ranks/align", alignModeName(compare_->mode())); });
    connect(diff_, &DiffPanel::showInstances, this,
            [this](int report, const QString& pattern) { findBar_->findLongest(pattern, report); });
    statsDock->raise();
    resizeDocks({statsDock}, {260}, Qt::Vertical);
    resizeDocks({detailsDock, markersDock}, {420, 140}, Qt::Vertical);
    resizeDocks({detailsDock}, {380}, Qt::Horizontal);
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

void MainWindow::applyRowPreset(int report) {
    QSettings settings;
    const QString format = qs(reports()[size_t(report)]->meta.format);
    // One order for the whole timeline: the first report's preset, kept as more reports join.
    const QString order =
        reports().size() == 1 || !rowOrder_->checkedAction()
            ? settings.value("rows/" + format + "/order", settings.value("rows/order", "gpu-first")).toString()
            : rowOrder_->checkedAction()->data().toString();
    setRowOrder(order == orderName(RowOrder::CpuFirst) ? RowOrder::CpuFirst : RowOrder::GpuFirst);
    const QStringList collapsed = settings.value("rows/" + format + "/collapsed").toStringList();
    for (const LayoutRow& row : timeline_->rows().rows())
        if (row.level == 0 && row.report == report)
            for (const QString& below : collapsed) timeline_->rows().setExpanded(row.key + below.toStdString(), false);
    timeline_->rowsChanged();
}

void MainWindow::saveRowPresets() {
    QSettings settings;
    const QString order = rowOrder_->checkedAction() ? rowOrder_->checkedAction()->data().toString() : "gpu-first";
    std::map<QString, QStringList> collapsedByFormat;  // row keys below the report row
    for (const LayoutRow& row : timeline_->rows().rows()) {
        if (row.level != 0) continue;
        QStringList& collapsed = collapsedByFormat[qs(reports()[size_t(row.report)]->meta.format)];
        for (const std::string& key : timeline_->rows().collapsed())
            if (key.starts_with(row.key) && (key.size() == row.key.size() || key[row.key.size()] == '/'))
                collapsed << qs(key.substr(row.key.size()));
    }
    for (const auto& [format, collapsed] : collapsedByFormat) {
        settings.setValue("rows/" + format + "/order", order);
        settings.setValue("rows/" + format + "/collapsed", collapsed);
    }
}

void MainWindow::openDialog() {
    const QStringList paths =
        QFileDialog::getOpenFileNames(this, "Open reports", QSettings().value("files/lastDir").toString(), kFileFilter);
    if (!paths.isEmpty()) {
        QSettings().setValue("files/lastDir", QFileInfo(paths.first()).absolutePath());
        openFiles(paths);
    }
}

void MainWindow::openSummariesDialog() {
    const QString dir =
        QFileDialog::getExistingDirectory(this, "Open rank summaries: a summary folder, or a folder holding them",
                                          QSettings().value("files/lastSummaryDir").toString());
    if (dir.isEmpty()) return;
    QSettings().setValue("files/lastSummaryDir", dir);
    openFiles({dir});
}

void MainWindow::readSummaries(const QStringList& paths) {
    ++summaryReads_;
    statusBar()->showMessage(QString("Reading rank summaries in %1…").arg(paths.join(", ")));
    auto* watcher = new QFutureWatcher<SummarySet>(this);
    connect(watcher, &QFutureWatcher<SummarySet>::finished, this, [this, watcher, paths] {
        watcher->deleteLater();
        --summaryReads_;
        addSummaries(watcher->future().takeResult(), paths);
    });
    watcher->setFuture(QtConcurrent::run([paths] {
        QElapsedTimer timer;
        timer.start();
        SummarySet set = readSummaryFolders(paths);
        spdlog::info("read {} rank summaries in {} ms ({} failed)", set.size(), timer.elapsed(), set.errors.size());
        return set;
    }));
}

void MainWindow::addSummaries(SummarySet set, const QStringList& paths) {
    const QStringList errors = set.errors;
    const bool ok = errors.isEmpty();
    for (const QString& error : errors) spdlog::warn("{}", error.toStdString());
    if (!set.inputs.empty()) {
        statusBar()->showMessage(QString("Read %1 rank summaries").arg(set.size()) +
                                     (ok ? QString() : QString("; %1 could not be read").arg(errors.size())),
                                 8000);
        for (const QString& path : paths) rememberRecent(path);
        compare_->addSummaries(std::move(set));
        raiseRanks();
        showWhatIsOpen();
        if (!session_->selectedEvent()) showDetails(std::nullopt);
    }
    if (!ok) {
        statusBar()->showMessage(errors.front());
        if (!allLoaded_)
            QMessageBox::warning(this, "Cannot read rank summaries",
                                 errors.size() == 1
                                     ? errors.front()
                                     : QString("%1 could not be read:\n").arg(errors.size()) + errors.join("\n"));
    }
    finishOpening(ok);
}

void MainWindow::finishOpening(bool ok) {
    openedAll_ = openedAll_ && ok;
    if (imports_->busy() || summaryReads_ > 0) return;
    const bool all = std::exchange(openedAll_, true);
    if (allLoaded_) allLoaded_(all);
}

void MainWindow::raiseRanks() {
    if (auto* dock = findChild<QDockWidget*>("ranks")) {
        dock->raise();
        // Summaries alone have no timeline: the panel takes most of the height.
        resizeDocks({dock}, {reports().empty() ? height() * 3 / 4 : height() * 9 / 20}, Qt::Vertical);
    }
}

void MainWindow::showWhatIsOpen() {
    timeline_->setEmptyText(compare_->fromSummaries()
                                ? "Rank summaries hold no timeline: double-click a rank in the Ranks panel to open "
                                  "its full report here"
                                : "Open a report: File > Open (Ctrl+O), or drop it here");
    if (reports().empty() && !compare_->fromSummaries()) {
        setWindowTitle("Lanescope");
        return;
    }
    if (reports().empty()) {
        setWindowTitle(QString("%1 rank summaries — Lanescope").arg(compare_->summaries()->size()));
        return;
    }
    setWindowTitle(QFileInfo(qs(reports().back()->meta.source_path)).fileName() +
                   (reports().size() > 1 ? QString(" and %1 more").arg(reports().size() - 1) : "") + " — Lanescope");
}

void MainWindow::chooseNsys() {
    const QString current = QSettings().value("nsys/path").toString();
    const QString path =
        QFileDialog::getOpenFileName(this, "Path to nsys", current.isEmpty() ? "/opt/nvidia" : current);
    if (!path.isEmpty()) QSettings().setValue("nsys/path", path);
}

void MainWindow::chooseMemoryLimit() {
    QSettings settings;
    const uint64_t free = availableMemory({}) >> 20;
    bool ok = false;
    const int mb =
        QInputDialog::getInt(this, "Memory limit for opening",
                             QString("Largest amount of memory, in MiB, that the reports opened together may take;\n"
                                     "a report estimated to need more is refused before it is read.\n"
                                     "0: what the machine has free when opening (now %1 MiB).")
                                 .arg(QLocale().toString(static_cast<qulonglong>(free))),
                             settings.value("import/memoryLimitMb", 0).toInt(), 0, 64 << 20, 1024, &ok);
    if (ok) settings.setValue("import/memoryLimitMb", mb);
}

void MainWindow::exportPng() {
    const QString path = QFileDialog::getSaveFileName(this, "Export timeline", "timeline.png", "PNG image (*.png)");
    if (path.isEmpty()) return;
    if (!timeline_->grab().save(path, "PNG")) {
        spdlog::warn("cannot write {}", path.toStdString());
        QMessageBox::warning(this, "Export failed", "Cannot write " + path);
    } else {
        statusBar()->showMessage("Saved " + path);
    }
}

void MainWindow::exportPerfetto() {
    if (reports().empty()) return;
    // The report of the selected event, else the last one opened.
    const auto selected = session_->selectedEvent();
    std::shared_ptr<const Report> report = reports()[selected ? size_t(selected->report) : reports().size() - 1];
    const QString suggested = QFileInfo(qs(report->meta.source_path)).completeBaseName() + ".pftrace";
    const QString path =
        QFileDialog::getSaveFileName(this, "Export to Perfetto", suggested, "Perfetto trace (*.pftrace)");
    if (path.isEmpty()) return;
    statusBar()->showMessage("Exporting " + path + "…");
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, path] {
        const QString error = watcher->result();
        watcher->deleteLater();
        if (error.isEmpty()) {
            spdlog::info("exported {}", path.toStdString());
            statusBar()->showMessage("Exported " + path, 8000);
        } else {
            spdlog::warn("export to Perfetto failed: {}", error.toStdString());
            QMessageBox::warning(this, "Export failed", error);
        }
    });
    watcher->setFuture(QtConcurrent::run(workPool(), [report, path] {
        std::string error;
        return writePerfetto(*report, path.toStdString(), error) ? QString() : QString::fromStdString(error);
    }));
}

void MainWindow::openFiles(const QStringList& all, NsysReader reader) {
    QStringList paths, folders;
    for (const QString& path : all) (QFileInfo(path).isDir() ? folders : paths) << path;
    if (!folders.isEmpty()) readSummaries(folders);
    if (paths.isEmpty()) {
        if (folders.isEmpty()) finishOpening(true);
        return;
    }
    if (!progress_) {
        progress_ = new QProgressDialog("Opening…", "Cancel", 0, 100, this);
        progress_->setWindowTitle("Lanescope");
        progress_->setMinimumDuration(300);
        progress_->setAutoClose(false);
        progress_->setAutoReset(false);
        progress_->setValue(0);
        connect(progress_, &QProgressDialog::canceled, imports_, &ImportQueue::cancel);
    }
    statusBar()->showMessage(paths.size() == 1 ? "Opening " + paths.front() + "…"
                                               : QString("Opening %1 files…").arg(paths.size()));
    imports_->add(paths, QSettings().value("nsys/path").toString(), reader,
                  QSettings().value("import/memoryLimitMb", 0).toULongLong() << 20);
}

void MainWindow::connectImports() {
    connect(imports_, &ImportQueue::progress, this, [this](const QString& text, int percent) {
        if (!progress_) return;
        progress_->setLabelText(text);
        progress_->setMaximum(percent < 0 ? 0 : 100);  // 0..0 shows a busy bar
        if (percent >= 0) progress_->setValue(percent);
    });
    connect(imports_, &ImportQueue::reportReady, this,
            [this](std::shared_ptr<const Report> report, std::shared_ptr<const CorrelationIndex> correlation,
                   const QString& path) {
                addReport(std::move(report), std::move(correlation));
                rememberRecent(path);
            });
    connect(imports_, &ImportQueue::failed, this, [this](const QString&, const QString& error, bool cancelled) {
        statusBar()->showMessage(cancelled ? "Opening cancelled" : error);
        if (!cancelled && !allLoaded_) QMessageBox::warning(this, "Cannot open report", error);
    });
    connect(imports_, &ImportQueue::idle, this, [this](bool allOpened) {
        if (progress_) progress_->deleteLater();
        progress_ = nullptr;
        if (initialRange_ && !reports().empty()) {
            session_->zoomTo(initialRange_->first, initialRange_->second, false);
            initialRange_.reset();
        }
        finishOpening(allOpened);
    });
}

void MainWindow::addReport(std::shared_ptr<const Report> report, std::shared_ptr<const CorrelationIndex> correlation) {
    const EventCounts& counts = finishedCounts(*report);
    statusBar()->showMessage(QString("Opened %1: %2 events, %3 counter samples")
                                 .arg(QFileInfo(qs(report->meta.source_path)).fileName(),
                                      QLocale().toString(static_cast<qulonglong>(counts.slices + counts.instants)),
                                      QLocale().toString(static_cast<qulonglong>(counts.counter_samples))),
                             8000);
    session_->addReport(std::move(report), std::move(correlation));  // the panels follow
    applyRowPreset(int(reports().size()) - 1);
    if (reports().size() == 2 && !compare_->fromSummaries())  // several ranks: show how they compare
        raiseRanks();
    showWhatIsOpen();
    showDetails(std::nullopt);
}

void MainWindow::closeReports() {
    saveRowPresets();
    session_->closeAll();
    compare_->closeSummaries();
    showWhatIsOpen();
    details_->setHtml("<h3>No report open</h3>");
}

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
    details_->setHtml(eventDetailsHtml(report, ref));
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

void MainWindow::rememberRecent(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value("files/recent").toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent) recent.removeLast();
    settings.setValue("files/recent", recent);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    recentMenu_->clear();
    const QStringList recent = QSettings().value("files/recent").toStringList();
    for (const QString& path : recent)
        recentMenu_->addAction(QFileInfo(path).fileName(), this, [this, path] { openFiles({path}); })
            ->setStatusTip(path);
    recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile()) paths << url.toLocalFile();
    openFiles(paths);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    saveRowPresets();
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    event->accept();
}

}  // namespace lanescope
