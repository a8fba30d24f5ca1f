#include "app/gui/panels/rules/RulesPanel.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableWidget>
#include <QVBoxLayout>
#include <stdexcept>

#include "analysis/Registry.h"

namespace lanescope {

RulesPanel::RulesPanel(ViewSession* session, QWidget* parent) : QWidget(parent), session_(session) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    report_ = new QComboBox;
    report_->setToolTip("Report the rule runs on");
    rule_ = new QComboBox;
    for (const RuleEntry& rule : rules())
        if (rule.name != "gpu_gaps")  // the GPU gaps panel shows those, with their causes
            rule_->addItem(QString::fromUtf8(rule.name.data(), qsizetype(rule.name.size())));
    rule_->setToolTip(
        "cuda_api_sync: synchronizing CUDA calls; cuda_memcpy_async: async copies of pageable memory;\n"
        "cuda_memcpy_sync / cuda_memset_sync: synchronous copies and sets; gpu_time_util: low GPU use");
    options_ = new QLineEdit;
    options_->setPlaceholderText("options, e.g. rows=-1:threshold=30");
    options_->setToolTip("nsys analyze options for the rule, written opt=value:opt2=value");
    status_ = new QLabel;
    top->addWidget(report_);
    top->addWidget(rule_);
    top->addWidget(options_, 1);
    top->addWidget(status_);
    layout->addLayout(top);
    table_ = new QTableWidget;
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setAlternatingRowColors(true);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->horizontalHeader()->setResizeContentsPrecision(40);
    table_->setToolTip("Click a finding to zoom to it on the timeline");
    layout->addWidget(table_, 1);
    connect(report_, &QComboBox::currentIndexChanged, this, &RulesPanel::recompute);
    connect(rule_, &QComboBox::currentIndexChanged, this, &RulesPanel::recompute);
    connect(options_, &QLineEdit::editingFinished, this, &RulesPanel::recompute);
    connect(table_, &QTableWidget::cellClicked, this, [this](int row, int) { activateRow(row); });
    connect(session_, &ViewSession::reportsChanged, this, [this] { setReports(session_->reports()); });
}

void RulesPanel::setReports(std::vector<std::shared_ptr<const Report>> reports) {
    reports_ = std::move(reports);
    const QSignalBlocker block(report_);
    report_->clear();
    for (const auto& r : reports_) report_->addItem(QFileInfo(QString::fromStdString(r->meta.source_path)).fileName());
    report_->setCurrentIndex(int(reports_.size()) - 1);
    report_->setVisible(reports_.size() > 1);
    recompute();
}

void RulesPanel::setRule(const QString& name) { rule_->setCurrentText(name); }

int RulesPanel::rowCount() const { return table_->rowCount(); }

void RulesPanel::computeNow() {
    const int index = report_->currentIndex();
    table_->clear();
    table_->setRowCount(0);
    if (index < 0 || index >= int(reports_.size())) return;
    std::shared_ptr<const Report> report = reports_[index];
    const std::string spec =
        rule_->currentText().toStdString() +
        (options_->text().trimmed().isEmpty() ? "" : ":" + options_->text().trimmed().toStdString());
    task_.run(
        [report, spec] {
            Outcome outcome;
            std::string error;
            const auto parsed = parseRuleSpec(spec, &error);
            if (!parsed) return Outcome{{}, QString::fromStdString(error)};
            try {
                const RuleEntry* rule = findRule(parsed->name);
                if (!rule) return Outcome{{}, "unknown rule " + QString::fromStdString(parsed->name)};
                outcome.result = rule->run(*report, parsed->options);
            } catch (const std::invalid_argument& e) {
                outcome.error = e.what();
            }
            return outcome;
        },
        [this, index](Outcome outcome) { showOutcome(std::move(outcome), index); });
}

void RulesPanel::showOutcome(Outcome outcome, int index) {
    if (!outcome.error.isEmpty()) {
        status_->setText(outcome.error);
        return;
    }
    result_ = std::move(outcome.result);
    resultReport_ = index;
    const StatsTable& t = result_.table;
    table_->setColumnCount(int(t.header.size()));
    QStringList header;
    for (const auto& h : t.header) header << QString::fromStdString(h);
    table_->setHorizontalHeaderLabels(header);
    table_->setRowCount(int(t.rows.size()));
    for (size_t r = 0; r < t.rows.size(); ++r)
        for (size_t c = 0; c < t.rows[r].size(); ++c) {
            auto* item = new QTableWidgetItem(QString::fromStdString(formatCell(t.rows[r][c])));
            if (!std::holds_alternative<std::string>(t.rows[r][c]))
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(int(r), int(c), item);
        }
    table_->resizeColumnsToContents();
    status_->setText(t.rows.empty() ? "nothing found" : QString("%1 findings").arg(t.rows.size()));
}

void RulesPanel::activateRow(int row) {
    if (row < 0 || row >= int(result_.findings.size()) || resultReport_ < 0) return;
    const RuleFinding& f = result_.findings[row];
    const int64_t span = std::max<int64_t>(f.end_ns - f.begin_ns, 1000);
    const int64_t offset = session_->offset(resultReport_);  // to the shared timeline
    session_->zoomTo(f.begin_ns + offset - span, f.end_ns + offset + span);
    if (f.event)
        session_->selectEvent(ViewEvent{resultReport_, f.event->lane, f.event->index});
    else
        session_->setSelectedRange(std::make_pair(f.begin_ns + offset, f.end_ns + offset));
}

}  // namespace lanescope
