// The main window while reports load: the import queue's signals to the loading bar, the
// placeholders on the timeline (each file's rows as its importer finds them) and the reports
// that replace them (the rest: MainWindow.cpp, MainWindowFiles.cpp, MainWindowLayout.cpp).
#include <QFileInfo>
#include <QMessageBox>
#include <QStatusBar>
#include <QTextBrowser>
#include <algorithm>

#include "app/gui/MainWindow.h"
#include "app/gui/ViewSession.h"
#include "app/gui/bars/LoadingBar.h"
#include "app/gui/import/ImportQueue.h"
#include "model/Correlation.h"

namespace lanescope {
namespace {

// The key of a report's row on the timeline at `place` (RowLayout: "<place>/<title>").
std::string reportRowKey(size_t place, const Report& report) {
    return std::to_string(place) + "/" + reportTitle(report);
}

}  // namespace

void MainWindow::connectImports() {
    connect(loading_, &LoadingBar::cancelRequested, imports_, &ImportQueue::cancel);
    connect(imports_, &ImportQueue::progress, loading_, &LoadingBar::setProgress);
    connect(imports_, &ImportQueue::skeletonReady, this, &MainWindow::showPlaceholder);
    connect(imports_, &ImportQueue::reportReady, this,
            [this](uint64_t id, std::shared_ptr<const Report> report,
                   std::shared_ptr<const CorrelationIndex> correlation, const QString& path, bool fromSavedModel) {
                // It takes its placeholder's place, the first one's: those before it are handed over.
                const std::shared_ptr<const Report> shown = dropPlaceholder(id, true);
                if (shown)
                    timeline_->rows().renameKeys(reportRowKey(reports().size(), *shown),
                                                 reportRowKey(reports().size(), *report));
                addReport(std::move(report), std::move(correlation), shown.get(), fromSavedModel);
                loading_->setEscapeCancels(false);  // Esc now clears the selection
                rememberRecent(path);
            });
    connect(imports_, &ImportQueue::failed, this,
            [this](uint64_t id, const QString&, const QString& error, bool cancelled) {
                dropPlaceholder(id, false);
                statusBar()->showMessage(cancelled ? "Opening cancelled" : error);
                if (!cancelled && !allLoaded_) QMessageBox::warning(this, "Cannot open report", error);
            });
    connect(imports_, &ImportQueue::idle, this, [this](bool allOpened) {
        loading_->hide();
        if (!placeholders_.empty()) {  // each is dropped when its file is handed over or fails
            placeholders_.clear();
            showPlaceholders();
        }
        if (initialRange_ && !reports().empty()) {
            session_->zoomTo(initialRange_->first, initialRange_->second, false);
            initialRange_.reset();
        }
        finishOpening(allOpened);
    });
}

void MainWindow::showPlaceholder(uint64_t id, std::shared_ptr<const Report> rows) {
    auto at = std::lower_bound(placeholders_.begin(), placeholders_.end(), id,
                               [](const Placeholder& p, uint64_t key) { return p.id < key; });
    const bool fresh = at == placeholders_.end() || at->id != id;
    const auto place = int(reports().size() + size_t(at - placeholders_.begin()));
    if (fresh) {
        // Those after it move one place down: their rows' state moves with them.
        for (auto later = placeholders_.end(); later != at;) {
            --later;
            const size_t from = reports().size() + size_t(later - placeholders_.begin());
            timeline_->rows().renameKeys(reportRowKey(from, *later->rows), reportRowKey(from + 1, *later->rows));
        }
        at = placeholders_.insert(at, Placeholder{id, rows});
    } else {
        timeline_->rows().renameKeys(reportRowKey(size_t(place), *at->rows), reportRowKey(size_t(place), *rows));
        at->rows = rows;
    }
    showPlaceholders();
    if (fresh) applyRowPreset(place, *rows);  // the rows as the report will show them
}

std::shared_ptr<const Report> MainWindow::dropPlaceholder(uint64_t id, bool replaced) {
    const auto at =
        std::find_if(placeholders_.begin(), placeholders_.end(), [id](const Placeholder& p) { return p.id == id; });
    if (at == placeholders_.end()) return nullptr;
    std::shared_ptr<const Report> rows = std::move(at->rows);
    const size_t first = reports().size() + size_t(at - placeholders_.begin());
    for (size_t i = first + 1; !replaced && i < reports().size() + placeholders_.size(); ++i) {
        const Report& later = *placeholders_[i - reports().size()].rows;
        timeline_->rows().renameKeys(reportRowKey(i, later), reportRowKey(i - 1, later));
    }
    placeholders_.erase(at);
    showPlaceholders();
    return rows;
}

void MainWindow::showPlaceholders() {
    std::vector<std::shared_ptr<const Report>> rows;
    for (const Placeholder& p : placeholders_) rows.push_back(p.rows);
    timeline_->setPlaceholders(std::move(rows));
    // Esc cancels unless a report is open, where it clears the selection (Cancel still stops).
    loading_->setEscapeCancels(reports().empty());
    if (reports().empty()) details_->setHtml(placeholders_.empty() ? noReportHtml() : openingHtml());
}

QString MainWindow::noReportHtml() {
    return "<h3>No report open</h3><p>Open one with File &gt; Open (Ctrl+O), or drop it here.</p>";
}

QString MainWindow::openingHtml() const {
    QString html = "<h3>Opening</h3><ul>";
    for (const Placeholder& p : placeholders_)
        html +=
            "<li>" + QFileInfo(QString::fromStdString(p.rows->meta.source_path)).fileName().toHtmlEscaped() + "</li>";
    return html +
           "</ul><p>The rows appear as they are found and can be scrolled and collapsed; their events once "
           "read. Cancel (or Esc) stops.</p>";
}

}  // namespace lanescope
