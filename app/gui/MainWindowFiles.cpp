// The main window's files: opening reports and rank summaries, exports, recent files, drag and
// drop (the import queue's signals: MainWindowLoading.cpp; the rest: MainWindow.cpp,
// MainWindowLayout.cpp).
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
#include <QTimer>
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
#include "app/gui/panels/diagnostics/DiagnosticsPanel.h"
#include "app/gui/panels/diff/DiffPanel.h"
#include "app/gui/panels/events/EventsPanel.h"
#include "app/gui/panels/gaps/GapsPanel.h"
#include "app/gui/panels/ranks/ComparePanel.h"
#include "app/gui/panels/rules/RulesPanel.h"
#include "app/gui/panels/statistics/StatsPanel.h"
#include "app/gui/panels/utilization/UtilizationChart.h"
#include "exporters/perfetto/PerfettoWriter.h"
#include "importers/MemoryEstimate.h"
#include "importers/WatchedMappings.h"
#include "importers/cache/ModelFile.h"
#include "model/Correlation.h"
#include "timeline/QtText.h"
#include "timeline/TimeFormat.h"

namespace lanescope {
namespace {

constexpr int kMaxRecent = 10;
const char* kFileFilter =
    "Profiler reports (*.sqlite *.nsys-rep *.qdrep);;Nsight Systems SQLite export (*.sqlite);;"
    "Nsight Systems report (*.nsys-rep *.qdrep);;All files (*)";

}  // namespace

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

void MainWindow::useModelCache(bool keep) {
    QSettings().setValue("cache/keepModels", keep);
    // LANESCOPE_CACHE=off in the environment wins over the setting.
    imports_->setCache(keep && ReportCache::enabled() ? std::make_shared<const ReportCache>() : nullptr);
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
    statusBar()->showMessage(paths.size() == 1 ? "Opening " + paths.front() + "…"
                                               : QString("Opening %1 files…").arg(paths.size()));
    imports_->add(paths, QSettings().value("nsys/path").toString(), reader,
                  QSettings().value("import/memoryLimitMb", 0).toULongLong() << 20);
}

// A report reopened from its saved model maps the cache entry. Should the entry be cut short
// on disk while open, the report reads zeros past the cut (importers/WatchedMappings.h):
// checked each second while a mapped model is open, said once.
void MainWindow::watchSavedModels() {
    if (cache::aMappedModelWasCutShort()) return;  // said already
    if (!savedModelCheck_) {
        savedModelCheck_ = new QTimer(this);
        savedModelCheck_->setObjectName("savedModelCheck");
        connect(savedModelCheck_, &QTimer::timeout, this, [this] {
            if (!cache::aMappedModelWasCutShort()) {
                if (watchedMappings() == 0) savedModelCheck_->stop();  // until the next reopen
                return;
            }
            savedModelCheck_->stop();
            const QString text =
                "A saved model was cut short on disk while open: its events past the cut read as zeros. "
                "Close the report and open its file again.";
            spdlog::warn("{}", text.toStdString());
            statusBar()->showMessage(text);
        });
    }
    savedModelCheck_->start(1000);
}

void MainWindow::addReport(std::shared_ptr<const Report> report, std::shared_ptr<const CorrelationIndex> correlation,
                           const Report* replaces, bool fromSavedModel) {
    const EventCounts& counts = finishedCounts(*report);
    statusBar()->showMessage(QString(fromSavedModel ? "Reopened %1 from its saved model: %2 events, %3 counter samples"
                                                    : "Opened %1: %2 events, %3 counter samples")
                                 .arg(QFileInfo(qs(report->meta.source_path)).fileName(),
                                      QLocale().toString(static_cast<qulonglong>(counts.slices + counts.instants)),
                                      QLocale().toString(static_cast<qulonglong>(counts.counter_samples))),
                             8000);
    if (fromSavedModel) watchSavedModels();
    session_->addReport(std::move(report), std::move(correlation));  // the panels follow
    // Where it replaces its placeholder, the groups collapsed as the preset said or the user chose since.
    applyRowPreset(int(reports().size()) - 1, *reports().back(), !replaces);
    if (reports().size() == 2 && !compare_->fromSummaries())  // several ranks: show how they compare
        raiseRanks();
    else if (reports().size() == 1 && reports().front()->meta.format == "kineto-json")  // a PyTorch trace
        showPytorch();
    showWhatIsOpen();
    showDetails(std::nullopt);
}

void MainWindow::closeReports() {
    saveRowPresets();
    const size_t open = reports().size();
    session_->closeAll();
    // The files still loading move up to the top: their rows keep their state.
    for (size_t i = 0; i < placeholders_.size(); ++i)
        timeline_->rows().renameKeys(std::to_string(open + i) + "/" + reportTitle(*placeholders_[i].rows),
                                     std::to_string(i) + "/" + reportTitle(*placeholders_[i].rows));
    compare_->closeSummaries();
    showWhatIsOpen();
    showPlaceholders();  // Details: the files still opening, or nothing open
}

void MainWindow::rememberRecent(const QString& path) {
    QSettings settings;
    const QStringList was = settings.value("files/recent").toStringList();
    QStringList recent = was;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent) recent.removeLast();
    // Unchanged (the file opened last again), nothing is written: a write waits for the disk.
    if (recent == was) return;
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

}  // namespace lanescope
