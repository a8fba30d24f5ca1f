#include "app/gui/panels/pytorch/PytorchPanel.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QRegularExpression>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <utility>

#include "app/gui/panels/pytorch/MemoryChart.h"
#include "app/gui/panels/pytorch/StepChart.h"
#include "app/gui/panels/tables/StatsTableView.h"
#include "timeline/QtText.h"

namespace lanescope {
namespace {

// A small table as lines of "Header value · Header value" (an overview's step spread, the
// memory view's devices).
QString asLines(const StatsTable& table) {
    QStringList lines;
    for (const auto& row : table.rows) {
        QStringList cells;
        for (size_t c = 0; c < row.size() && c < table.header.size(); ++c)
            if (const std::string text = formatCell(row[c]); !text.empty())
                cells << QString::fromStdString(table.header[c]) + " <b>" +
                             QString::fromStdString(text).toHtmlEscaped() + "</b>";
        lines << cells.join(" · ");
    }
    return lines.join("<br>");
}

}  // namespace

PytorchPanel::PytorchPanel(ViewSession* session, QWidget* parent) : QWidget(parent), session_(session) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    report_ = new QComboBox;
    report_->setToolTip("Report whose PyTorch views are shown");
    report_->hide();
    status_ = new QLabel("No report");
    auto* copy = new QToolButton;
    copy->setText("Copy");
    copy->setToolTip("Copy the selected rows (or all) as CSV (Ctrl+C)");
    auto* save = new QToolButton;
    save->setText("Export CSV…");
    save->setToolTip("Save the shown table as CSV");
    top->addWidget(status_, 1);
    top->addWidget(report_);
    top->addWidget(copy);
    top->addWidget(save);
    layout->addLayout(top);
    tabs_ = new QTabWidget;
    tabs_->setDocumentMode(true);
    layout->addWidget(tabs_, 1);
    for (const PytorchViewEntry& view : pytorchViews()) {
        if (!view.variantOf.empty()) continue;  // a grouping, offered by its view's tab
        auto* page = new QWidget;
        auto* pageLayout = new QVBoxLayout(page);
        pageLayout->setContentsMargins(0, 2, 0, 0);
        auto* missing = new QLabel;
        missing->setWordWrap(true);
        missing->setTextInteractionFlags(Qt::TextSelectableByMouse);
        missing->setStyleSheet("QLabel { color: palette(text); background: palette(alternate-base); padding: 4px; }");
        missing->hide();
        auto* summary = new QLabel;
        summary->setWordWrap(true);
        summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
        summary->hide();
        auto* table = new StatsTableView;
        table->view()->setToolTip(
            "Click a row to show it on the timeline: an operator's or kernel's longest instance (F3: the next), "
            "a step's or allocation's span");
        Tab tab{&view, missing, summary, table};
        for (const PytorchViewEntry& variant : pytorchViews())
            if (variant.variantOf == view.name) {
                if (!tab.groupBy) {
                    tab.groupBy = new QComboBox;
                    tab.groupBy->setToolTip("How the rows group the instances");
                    tab.groupBy->addItem(qs(view.grouping), qs(view.name));
                    auto* row = new QHBoxLayout;
                    row->addWidget(new QLabel("Group by"));
                    row->addWidget(tab.groupBy);
                    row->addStretch(1);
                    pageLayout->addLayout(row);
                }
                tab.groupBy->addItem(qs(variant.grouping), qs(variant.name));
            }
        pageLayout->addWidget(missing);
        pageLayout->addWidget(summary);
        if (view.name == "overview") tab.steps = new StepChart;
        if (view.name == "memory") tab.memory = new MemoryChart;
        if (QWidget* chart = tab.steps ? static_cast<QWidget*>(tab.steps) : tab.memory) {
            auto* split = new QSplitter(Qt::Horizontal);
            split->addWidget(chart);
            split->addWidget(table);
            split->setStretchFactor(0, 2);
            split->setStretchFactor(1, 3);
            split->setSizes({400, 600});  // scaled to the splitter's width
            pageLayout->addWidget(split, 1);
        } else {
            pageLayout->addWidget(table, 1);
        }
        tabs_->addTab(page, qs(view.title));
        const size_t index = tabList_.size();
        tabList_.push_back(tab);
        if (tab.steps)
            connect(tab.steps, &StepChart::stepClicked, this, [this, index](int row) {
                const Tab& t = tabList_[index];
                showOnTimeline(t.view->rowTarget(t.table->table(), size_t(row)));
            });
        if (tab.groupBy)
            connect(tab.groupBy, &QComboBox::currentIndexChanged, this, [this, index] {
                Tab& t = tabList_[index];
                t.view = findPytorchView(t.groupBy->currentData().toString().toStdString());
                t.computed = false;
                t.table->setTable({});
                recompute();
            });
        if (tab.memory)
            connect(tab.memory, &MemoryChart::timeClicked, this, [this](int64_t time_ns) {
                const int64_t t = time_ns + pickedOffset();
                const auto [begin, end] = session_->visibleRange();
                const int64_t half = std::max<int64_t>((end - begin) / 2, 1000);
                session_->zoomTo(t - half, t + half);
            });
        connect(table, &StatsTableView::rowActivated, this, [this, index](int row) {
            const Tab& tab = tabList_[index];
            showOnTimeline(tab.view->rowTarget(tab.table->table(), size_t(row)));
        });
    }
    connect(copy, &QToolButton::clicked, this, [this] {
        if (const int i = tabs_->currentIndex(); i >= 0) tabList_[size_t(i)].table->copyRows();
    });
    connect(save, &QToolButton::clicked, this, [this] {
        if (const int i = tabs_->currentIndex(); i >= 0)
            tabList_[size_t(i)].table->exportCsv("pytorch_" + qs(tabList_[size_t(i)].view->name));
    });
    connect(tabs_, &QTabWidget::currentChanged, this, [this](int i) {
        if (i >= 0 && !tabList_[size_t(i)].computed) recompute();
    });
    connect(report_, &QComboBox::currentIndexChanged, this, [this] {
        for (Tab& tab : tabList_) tab.computed = false;
        recompute();
    });
    connect(session, &ViewSession::reportsChanged, this, [this, session] { setReports(session->reports()); });
}

void PytorchPanel::setReports(std::vector<std::shared_ptr<const Report>> reports) {
    reports_ = std::move(reports);
    {
        const QSignalBlocker block(report_);
        report_->clear();
        for (const auto& r : reports_)
            report_->addItem(QFileInfo(QString::fromStdString(r->meta.source_path)).fileName());
        report_->setCurrentIndex(int(reports_.size()) - 1);
        report_->setVisible(reports_.size() > 1);
    }
    for (Tab& tab : tabList_) {
        tab.computed = false;
        tab.table->setTable({});
        tab.missing->hide();
        tab.summary->hide();
        if (tab.steps) tab.steps->setSteps({});
        if (tab.memory) tab.memory->clear();
    }
    recompute();
}

void PytorchPanel::computeShown() {
    const int index = report_->currentIndex(), shown = tabs_->currentIndex();
    if (index < 0 || index >= int(reports_.size()) || shown < 0) {
        task_.cancel();
        status_->setText("No report");
        return;
    }
    const size_t tab = size_t(shown);
    if (tabList_[tab].computed) return;
    std::shared_ptr<const Report> report = reports_[size_t(index)];
    const PytorchViewEntry* view = tabList_[tab].view;
    status_->setText(QString("Computing %1…").arg(qs(view->title).toLower()));
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    const bool memoryChart = tabList_[tab].memory != nullptr;
    task_.run(
        [report, view, tab, memoryChart] {
            return Computed{tab, view->compute(*report, StatsTableView::kShownRows),
                            memoryChart ? MemoryChart::curvesOf(*report) : MemoryCurves{}};
        },
        [this, clock, tab](Computed computed) {
            display(std::move(computed));
            const StatsTableView* shown = tabList_[tab].table;
            status_->setText(QString("%1: %2 rows in %3 ms%4")
                                 .arg(qs(tabList_[tab].view->title))
                                 .arg(QLocale().toString(qulonglong(shown->wholeRows())))
                                 .arg(clock->elapsed())
                                 .arg(shown->hiddenRowsNote()));
        });
}

void PytorchPanel::display(Computed computed) {
    Tab& tab = tabList_[computed.tab];
    tab.computed = true;
    PytorchViewResult& result = computed.result;
    tab.table->setTable(result.tables.empty() ? StatsTable{} : std::move(result.tables.front()));
    if (result.mainRows > tab.table->table().rows.size()) {  // the first rows only: Export CSV makes all
        const int report = report_->currentIndex();
        std::shared_ptr<const Report> shown =
            report >= 0 && report < int(reports_.size()) ? reports_[size_t(report)] : nullptr;
        const PytorchViewEntry* view = tab.view;
        if (shown)
            tab.table->setWhole(result.mainRows,
                                [shown, view] { return view->compute(*shown, SIZE_MAX).tables.front(); });
    }
    tab.missing->setText(result.missing.empty() ? QString() : "This report has " + qs(result.missing));
    tab.missing->setVisible(!result.missing.empty());
    QStringList summaries;
    for (size_t t = 1; t < result.tables.size(); ++t)
        if (!result.tables[t].rows.empty()) summaries << asLines(result.tables[t]);
    tab.summary->setText(summaries.join("<br>"));
    tab.summary->setVisible(!summaries.isEmpty());
    if (tab.steps) tab.steps->setSteps(tab.table->table());
    if (tab.memory) tab.memory->setCurves(computed.memory);
    // The tab picked while this one computed.
    if (const int shown = tabs_->currentIndex(); shown >= 0 && !tabList_[size_t(shown)].computed) recompute();
}

int64_t PytorchPanel::pickedOffset() const {
    const size_t report = size_t(std::max(0, report_->currentIndex()));
    const std::vector<int64_t>& offsets = session_->offsets();
    return report < offsets.size() ? offsets[report] : 0;
}

void PytorchPanel::showOnTimeline(const PytorchRowTarget& target) {
    if (!target.eventName.empty()) {
        emit showInstances(std::max(0, report_->currentIndex()),
                           "^" + QRegularExpression::escape(QString::fromStdString(target.eventName)) + "$");
    } else if (target.begin_ns >= 0 && target.end_ns >= target.begin_ns) {
        const int64_t begin = target.begin_ns + pickedOffset(), end = target.end_ns + pickedOffset();
        const int64_t margin = std::max<int64_t>((end - begin) / 10, 1000);
        session_->setSelectedRange(TimeInterval{begin, end});
        session_->zoomTo(begin - margin, end + margin);
    }
}

void PytorchPanel::showView(const QString& name) {
    const PytorchViewEntry* view = findPytorchView(name.toStdString());
    if (!view) return;
    const QString tabName = view->variantOf.empty() ? name : qs(view->variantOf);
    for (size_t i = 0; i < tabList_.size(); ++i) {
        Tab& tab = tabList_[i];
        if (tab.groupBy && tab.groupBy->findData(tabName) >= 0)
            tab.groupBy->setCurrentIndex(tab.groupBy->findData(name));
        if (tab.groupBy ? tab.groupBy->findData(tabName) >= 0 : qs(tab.view->name) == tabName)
            tabs_->setCurrentIndex(int(i));
    }
}

// The tab showing view `name` now.
const PytorchPanel::Tab* PytorchPanel::tabOf(const QString& name) const {
    for (const Tab& tab : tabList_)
        if (qs(tab.view->name) == name) return &tab;
    return nullptr;
}

const StatsTable& PytorchPanel::table(const QString& name) const {
    static const StatsTable kNone;
    const Tab* tab = tabOf(name);
    return tab ? tab->table->table() : kNone;
}

QString PytorchPanel::missingText(const QString& name) const {
    const Tab* tab = tabOf(name);
    return tab ? tab->missing->text() : QString();
}

StatsTableView* PytorchPanel::tableView(const QString& name) const {
    const Tab* tab = tabOf(name);
    return tab ? tab->table : nullptr;
}

QString PytorchPanel::summaryText(const QString& name) const {
    const Tab* tab = tabOf(name);
    return tab ? tab->summary->text() : QString();
}

StepChart* PytorchPanel::stepChart() const {
    for (const Tab& tab : tabList_)
        if (tab.steps) return tab.steps;
    return nullptr;
}

MemoryChart* PytorchPanel::memoryChart() const {
    for (const Tab& tab : tabList_)
        if (tab.memory) return tab.memory;
    return nullptr;
}

bool PytorchPanel::ready() const {
    const int shown = tabs_->currentIndex();
    return !task_.busy() && (reports_.empty() || (shown >= 0 && tabList_[size_t(shown)].computed));
}

}  // namespace lanescope
