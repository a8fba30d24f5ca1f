#include "app/gui/MainWindow.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTextBrowser>
#include <QTreeWidget>

#include <sqlite3.h>

#include "app/gui/ImportTask.h"
#include "app/gui/ReportSummary.h"

namespace lanescope {
namespace {

constexpr int kReportRole = Qt::UserRole;      // index into reports_
constexpr int kMaxRecent = 10;
const char* kFileFilter =
    "Profiler reports (*.sqlite *.nsys-rep *.qdrep);;Nsight Systems SQLite export (*.sqlite);;"
    "Nsight Systems report (*.nsys-rep *.qdrep);;All files (*)";

QTreeWidgetItem* addRow(QTreeWidgetItem* parent, const Row& row, int report) {
    auto* item = new QTreeWidgetItem(parent, {QString::fromStdString(row.label), QLocale().toString(static_cast<qulonglong>(row.events))});
    item->setData(0, kReportRole, report);
    item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
    for (const Row& child : row.children) addRow(item, child, report);
    return item;
}

}  // namespace

MainWindow::MainWindow() {
    setWindowTitle("Lanescope");
    setAcceptDrops(true);
    tree_ = new QTreeWidget;
    tree_->setHeaderLabels({"Rows", "Events"});
    tree_->header()->setStretchLastSection(false);
    tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    tree_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    tree_->setToolTip("Rows of the open reports: GPUs with their streams, processes with their threads");
    summary_ = new QTextBrowser;
    summary_->setOpenLinks(false);
    summary_->setHtml("<h2>No report open</h2><p>Open a report with File &gt; Open (Ctrl+O) or drop it here.</p>");
    auto* splitter = new QSplitter;
    splitter->addWidget(tree_);
    splitter->addWidget(summary_);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    setCentralWidget(splitter);
    connect(tree_, &QTreeWidget::currentItemChanged, this, &MainWindow::showSelection);
    buildMenus();
    statusBar()->showMessage("Ready");

    QSettings settings;
    if (!restoreGeometry(settings.value("window/geometry").toByteArray())) resize(1280, 800);
    rowOrder_ = settings.value("rows/order").toString() == "cpu-first" ? RowOrder::CpuFirst : RowOrder::GpuFirst;
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu("&File");
    file->addAction("&Open…", QKeySequence::Open, this, &MainWindow::openDialog)->setStatusTip("Open profiler reports");
    recentMenu_ = file->addMenu("Open &Recent");
    updateRecentMenu();
    file->addAction("&Close", QKeySequence::Close, this, &MainWindow::closeCurrent)->setStatusTip("Close the selected report");
    file->addSeparator();
    file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);

    QMenu* view = menuBar()->addMenu("&View");
    auto* order = new QActionGroup(this);
    QAction* gpuFirst = view->addAction("&GPU rows first", this, [this] { rowOrder_ = RowOrder::GpuFirst; rebuildTree(); });
    QAction* cpuFirst = view->addAction("&CPU rows first", this, [this] { rowOrder_ = RowOrder::CpuFirst; rebuildTree(); });
    for (QAction* a : {gpuFirst, cpuFirst}) {
        a->setCheckable(true);
        order->addAction(a);
    }
    (rowOrder_ == RowOrder::CpuFirst ? cpuFirst : gpuFirst)->setChecked(true);
    view->addSeparator();
    view->addAction("&Expand all", QKeySequence("Ctrl+Shift+E"), tree_, &QTreeWidget::expandAll);
    view->addAction("C&ollapse all", QKeySequence("Ctrl+Shift+C"), tree_, &QTreeWidget::collapseAll);

    QMenu* help = menuBar()->addMenu("&Help");
    help->addAction("&About Lanescope", this, [this] {
        QMessageBox::about(this, "About Lanescope",
                           QString("<h3>Lanescope %1</h3><p>A fast timeline viewer for GPU and CPU profiler reports.</p>"
                                   "<p>Qt %2, SQLite %3</p>").arg(LANESCOPE_VERSION, qVersion(), sqlite3_libversion()));
    });
    help->addAction("About &Qt", qApp, &QApplication::aboutQt);
}

void MainWindow::openDialog() {
    const QStringList paths = QFileDialog::getOpenFileNames(this, "Open reports", QSettings().value("files/lastDir").toString(), kFileFilter);
    if (!paths.isEmpty()) {
        QSettings().setValue("files/lastDir", QFileInfo(paths.first()).absolutePath());
        openFiles(paths);
    }
}

void MainWindow::openFiles(const QStringList& paths) {
    queue_ += paths;
    if (!importing_) importNext();
}

void MainWindow::importNext() {
    if (queue_.isEmpty()) {
        importing_ = false;
        if (allLoaded_) allLoaded_(!anyFailed_);
        anyFailed_ = false;
        return;
    }
    importing_ = true;
    const QString path = queue_.takeFirst();
    auto* task = new ImportTask(path, this);
    progress_ = new QProgressDialog("Opening " + QFileInfo(path).fileName() + "…", "Cancel", 0, 100, this);
    progress_->setWindowTitle("Lanescope");
    progress_->setMinimumDuration(300);
    progress_->setAutoClose(false);
    progress_->setAutoReset(false);
    progress_->setValue(0);
    connect(progress_, &QProgressDialog::canceled, task, &ImportTask::cancel);
    connect(task, &ImportTask::progress, this, [this, path](const QString& stage, int percent) {
        if (!progress_) return;
        progress_->setLabelText(QString("Opening %1…\n%2").arg(QFileInfo(path).fileName(), stage));
        progress_->setMaximum(percent < 0 ? 0 : 100);  // 0..0 shows a busy bar
        if (percent >= 0) progress_->setValue(percent);
    });
    connect(task, &ImportTask::finished, this,
            [this, task, path](std::shared_ptr<const Report> report, const QString& error, bool cancelled) {
                progress_->deleteLater();
                progress_ = nullptr;
                task->deleteLater();
                if (report) {
                    addReport(std::move(report));
                    rememberRecent(path);
                } else {
                    anyFailed_ = true;
                    statusBar()->showMessage(cancelled ? "Opening cancelled" : error);
                    if (!cancelled) QMessageBox::warning(this, "Cannot open report", error);
                }
                importNext();
            });
    statusBar()->showMessage("Opening " + path + "…");
    task->start();
}

void MainWindow::addReport(std::shared_ptr<const Report> report) {
    const EventCounts counts = report->counts();
    statusBar()->showMessage(QString("Opened %1: %2 events, %3 counter samples")
                                 .arg(QFileInfo(QString::fromStdString(report->meta.source_path)).fileName(),
                                      QLocale().toString(static_cast<qulonglong>(counts.slices + counts.instants)),
                                      QLocale().toString(static_cast<qulonglong>(counts.counter_samples))));
    reports_.push_back(std::move(report));
    rebuildTree();
}

void MainWindow::rebuildTree() {
    QSettings().setValue("rows/order", rowOrder_ == RowOrder::CpuFirst ? "cpu-first" : "gpu-first");
    tree_->clear();
    for (size_t i = 0; i < reports_.size(); ++i) {
        const Report& r = *reports_[i];
        const std::vector<Row> rows = buildRowTree(r, rowOrder_);
        uint64_t events = 0;
        for (const Row& row : rows) events += row.events;
        auto* top = new QTreeWidgetItem(tree_, {QFileInfo(QString::fromStdString(r.meta.source_path)).fileName(),
                                                QLocale().toString(static_cast<qulonglong>(events))});
        top->setData(0, kReportRole, static_cast<int>(i));
        top->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        QFont bold = top->font(0);
        bold.setBold(true);
        top->setFont(0, bold);
        for (const Row& row : rows) addRow(top, row, static_cast<int>(i));
        top->setExpanded(true);
        for (int c = 0; c < top->childCount(); ++c) top->child(c)->setExpanded(true);
    }
    setWindowTitle(reports_.empty() ? "Lanescope"
                                    : tree_->topLevelItem(tree_->topLevelItemCount() - 1)->text(0) + " — Lanescope");
    if (tree_->topLevelItemCount()) tree_->setCurrentItem(tree_->topLevelItem(tree_->topLevelItemCount() - 1));
    showSelection();
}

void MainWindow::showSelection() {
    const QTreeWidgetItem* item = tree_->currentItem();
    if (!item) return;
    const int index = item->data(0, kReportRole).toInt();
    if (index >= 0 && index < static_cast<int>(reports_.size())) summary_->setHtml(reportSummaryHtml(*reports_[index]));
}

void MainWindow::closeCurrent() {
    const QTreeWidgetItem* item = tree_->currentItem();
    if (!item) return;
    const int index = item->data(0, kReportRole).toInt();
    if (index < 0 || index >= static_cast<int>(reports_.size())) return;
    reports_.erase(reports_.begin() + index);
    rebuildTree();
    if (reports_.empty()) summary_->setHtml("<h2>No report open</h2>");
}

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
        recentMenu_->addAction(QFileInfo(path).fileName(), this, [this, path] { openFiles({path}); })->setStatusTip(path);
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
    QSettings().setValue("window/geometry", saveGeometry());
    event->accept();
}

}  // namespace lanescope
