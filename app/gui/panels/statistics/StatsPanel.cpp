#include "app/gui/panels/statistics/StatsPanel.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QIODevice>
#include <QLabel>
#include <QMenu>
#include <QRegularExpression>
#include <QStackedWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <string_view>

#include "analysis/Registry.h"
#include "app/gui/panels/statistics/ShownStats.h"
#include "timeline/QtText.h"
#include "timeline/TimeFormat.h"

namespace lanescope {
namespace {}  // namespace

StatsPanel::StatsPanel(ViewSession* session, QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    scope_ = new QLabel("No report");
    scope_->setObjectName("statsScope");
    reportChoice_ = new QComboBox;
    reportChoice_->setToolTip("Report whose statistics are shown");
    reportChoice_->hide();
    auto* copy = new QToolButton;
    copy->setText("Copy");
    copy->setToolTip("Copy the selected rows (or all) as CSV (Ctrl+C)");
    auto* save = new QToolButton;
    save->setText("Export CSV…");
    save->setToolTip("Save this table as CSV, with nsys stats' header");
    kind_ = new QComboBox;
    kind_->setObjectName("statsReportPicker");
    kind_->setToolTip("Statistics report shown below");
    kind_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    top->addWidget(kind_);
    top->addWidget(scope_, 1);
    top->addWidget(reportChoice_);
    top->addWidget(copy);
    top->addWidget(save);
    layout->addLayout(top);
    pages_ = new QStackedWidget;
    layout->addWidget(pages_, 1);
    for (const StatsReportEntry& spec : statsReports()) {  // one page per report, in registry order
        auto* page = new StatsTableView;
        pages_->addWidget(page);
        kind_->addItem(qs(spec.title), qs(spec.name));
        tabList_.push_back({qs(spec.name), page, {}});
    }
    for (size_t i = 0; i < tabList_.size(); ++i) {
        QTableView* view = tabList_[i].page->view();
        view->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(view, &QWidget::customContextMenuRequested, this, [this, i, view](QPoint pos) {
            const QModelIndex index = view->indexAt(pos);
            if (!index.isValid()) return;
            const int nameColumn = view->model()->columnCount() - 1;
            const QString name = view->model()->index(index.row(), nameColumn).data().toString();
            QMenu menu(view);
            // The event names behind a row: NVTX rows are "domain:name"; API rows drop a
            // "_vNNNN" suffix that the events still carry.
            const QString report = tabList_[i].reportName;
            const QString base = report == "nvtx_sum" ? name.mid(name.indexOf(':') + 1) : name;
            const QString pattern =
                "^" + QRegularExpression::escape(base) + (report == "cuda_api_sum" ? "(_v[0-9]+)?$" : "$");
            menu.addAction("Show instances on the timeline (longest first)", this, [this, pattern] {
                emit showInstances(std::max(0, reportChoice_->currentIndex()), pattern);
            });
            menu.addAction("Copy rows", this, [this, i] { tabList_[i].page->copyRows(); });
            menu.exec(view->viewport()->mapToGlobal(pos));
        });
    }
    connect(copy, &QToolButton::clicked, this, [this] {
        if (Tab* t = currentTab()) t->page->copyRows();
    });
    connect(save, &QToolButton::clicked, this, [this] {
        if (Tab* t = currentTab()) t->page->exportCsv(t->reportName);
    });
    connect(kind_, &QComboBox::currentIndexChanged, this, [this](int i) {
        pages_->setCurrentIndex(i);
        if (Tab* t = currentTab(); t && !t->computed)
            computePicked();
        else if (t && !t->filled)
            fill(*t, std::move(t->table));
        showScope();
    });
    connect(reportChoice_, &QComboBox::currentIndexChanged, this, [this] {
        pickFirstWithRows_ = true;
        recompute();
    });
    connect(session, &ViewSession::reportsChanged, this, [this, session] {
        offsets_ = session->offsets();
        setReports(session->reports());
    });
    connect(session, &ViewSession::offsetsChanged, this, [this, session] { setOffsets(session->offsets()); });
    connect(session, &ViewSession::selectionChanged, this, &StatsPanel::setRange);
}

QString StatsPanel::currentReportName() const {
    const int i = pages_->currentIndex();
    return i >= 0 && i < int(tabList_.size()) ? tabList_[size_t(i)].reportName : QString();
}

StatsPanel::Tab* StatsPanel::currentTab() {
    const int i = pages_->currentIndex();
    return i >= 0 && i < int(tabList_.size()) ? &tabList_[i] : nullptr;
}

const StatsTable* StatsPanel::table(const QString& reportName) const {
    for (const Tab& t : tabList_)
        if (t.reportName == reportName) return t.filled ? &t.page->table() : &t.table;
    return nullptr;
}

void StatsPanel::setReports(std::vector<std::shared_ptr<const Report>> reports) {
    reports_ = std::move(reports);
    const QSignalBlocker block(reportChoice_);
    reportChoice_->clear();
    for (const auto& r : reports_)
        reportChoice_->addItem(QFileInfo(QString::fromStdString(r->meta.source_path)).fileName());
    reportChoice_->setCurrentIndex(int(reports_.size()) - 1);
    reportChoice_->setVisible(reports_.size() > 1);
    range_.reset();
    pickFirstWithRows_ = true;
    recompute();
}

void StatsPanel::setRange(std::optional<std::pair<int64_t, int64_t>> range) {
    range_ = range;
    recompute();
}

void StatsPanel::setOffsets(std::vector<int64_t> offsets) {
    if (offsets == offsets_) return;
    offsets_ = std::move(offsets);
    if (range_) recompute();
}

// The selected range on report `index`'s own timeline (the whole report without a selection).
TimeRange StatsPanel::rangeOf(int index) const {
    const int64_t offset = size_t(index) < offsets_.size() ? offsets_[size_t(index)] : 0;
    return range_ ? TimeRange{range_->first - offset, range_->second - offset} : TimeRange::all();
}

void StatsPanel::computeNow() {
    const int index = reportChoice_->currentIndex();
    if (index < 0 || index >= int(reports_.size())) {
        scopeText_ = "No report";
        for (Tab& t : tabList_) fill(t, {});
        shownPending_ = false;
        return;
    }
    std::shared_ptr<const Report> report = reports_[index];
    const TimeRange range = rangeOf(index);
    scopeText_ = range_ ? QString("Selection: %1, events lying wholly inside it")
                              .arg(QString::fromStdString(formatDuration(range_->second - range_->first)))
                        : QString("Whole report");
    showScope();
    // Only the shown table, on both threads; the others are computed when picked, so that
    // memory holds one table's values at a time and nothing competes with drawing. A newly
    // opened report whose shown table is empty looks, in registry order, for the first summary
    // with rows (a report without kernels would otherwise open on an empty Kernels table); trace
    // reports, which list every event, are never computed unless picked. The whole report's
    // summaries are kept with its saved model, and read from it when it is reopened.
    const size_t picked = size_t(std::max(0, kind_->currentIndex()));
    const bool findRows = pickFirstWithRows_;
    task_.run(
        [report, range, whole = !range_.has_value(), picked, findRows, options = shownRowsOnly()] {
            return computeShownStats(*report, range, whole, picked, findRows, options);
        },
        [this](std::vector<std::optional<StatsTable>> tables) {
            fillAll(std::move(tables), true);
            pickFirstWithRows_ = false;
            shownPending_ = false;
        });
}

// The picked report alone, when it was left out (growsWithEvents), for the same report and range.
void StatsPanel::computePicked() {
    const int index = reportChoice_->currentIndex(), picked = kind_->currentIndex();
    if (index < 0 || index >= int(reports_.size()) || picked < 0) return;
    std::shared_ptr<const Report> report = reports_[index];
    const TimeRange range = rangeOf(index);
    shownPending_ = true;
    task_.run(
        [report, range, whole = !range_.has_value(), picked = size_t(picked), options = shownRowsOnly()] {
            return computeShownStats(*report, range, whole, picked, false, options, 1);
        },
        [this](std::vector<std::optional<StatsTable>> tables) {
            fillAll(std::move(tables), false);
            shownPending_ = false;
        });
}

void StatsPanel::fillAll(std::vector<std::optional<StatsTable>> result, bool all) {
    // A newly opened report shows the first report with rows (one without kernels would
    // otherwise open on an empty Kernels table).
    if (pickFirstWithRows_) {
        const auto first = std::find_if(result.begin(), result.end(),
                                        [](const std::optional<StatsTable>& t) { return t && !t->rows.empty(); });
        if (first != result.end()) {
            pickFirstWithRows_ = false;
            const QSignalBlocker block(kind_);
            kind_->setCurrentIndex(int(first - result.begin()));
            pages_->setCurrentIndex(kind_->currentIndex());
        }
    }
    // Only the visible table is filled into its view now; the others when picked (a trace
    // report can hold millions of rows).
    const size_t current = size_t(std::max(0, pages_->currentIndex()));
    for (size_t i = 0; i < tabList_.size() && i < result.size(); ++i) {
        Tab& tab = tabList_[i];
        if (!result[i] && !all) continue;  // one report computed: the others stay as they are
        tab.computed = result[i].has_value();
        if (i == current && result[i]) continue;
        tab.page->setTable({});
        tab.table = result[i] ? std::move(*result[i]) : StatsTable{};
        tab.filled = false;
    }
    if (current < result.size() && result[current]) fill(tabList_[current], std::move(*result[current]));
    emit updated();
}

void StatsPanel::fill(Tab& tab, StatsTable table) {
    const uint64_t kept = table.rows.size(), leftOut = table.rows_left_out;
    tab.page->setTable(std::move(table));
    const int index = reportChoice_->currentIndex();
    if (leftOut && index >= 0 && index < int(reports_.size())) {
        // A trace cut at its first rows: Export CSV writes all of it as it is made again.
        const StatsReportEntry& entry = statsReports()[size_t(&tab - tabList_.data())];
        tab.page->setWholeCsv(kept + leftOut,
                              [&entry, report = reports_[size_t(index)], range = rangeOf(index)](QIODevice& file) {
                                  return writeStatsCsv(entry, *report, range, {}, [&](std::string_view text) {
                                      return file.write(text.data(), qint64(text.size())) == qint64(text.size());
                                  });
                              });
    }
    tab.table = {};
    tab.filled = true;
    showScope();
}

StatsOptions StatsPanel::shownRowsOnly() {
    StatsOptions options;
    options.trace_rows = StatsTableView::kShownRows;
    return options;
}

void StatsPanel::showScope() {
    const Tab* tab = currentTab();
    scope_->setText(scopeText_ + (tab && tab->filled ? tab->page->hiddenRowsNote() : QString()));
}

}  // namespace lanescope
