#include "app/gui/panels/diagnostics/DiagnosticsPanel.h"

#include <QApplication>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QStyle>
#include <QTabWidget>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "app/gui/Theme.h"
#include "app/gui/panels/diagnostics/NsysMessagesTable.h"
#include "timeline/QtText.h"

namespace lanescope {
namespace {

QString severityLabel(DiagnosticSeverity severity) {
    return severity == DiagnosticSeverity::Error     ? "Error"
           : severity == DiagnosticSeverity::Warning ? "Warning"
                                                     : "Info";
}

// Sorts by the number in Qt::UserRole (severity rank, count) instead of the text.
class RankedItem : public QTableWidgetItem {
public:
    RankedItem(const QString& text, qulonglong rank) : QTableWidgetItem(text) { setData(Qt::UserRole, rank); }
    bool operator<(const QTableWidgetItem& other) const override {
        return data(Qt::UserRole).toULongLong() < other.data(Qt::UserRole).toULongLong();
    }
};

struct Row {
    int report;
    std::string name;
    uint64_t count;
    DiagnosticDescription description;
};

}  // namespace

QIcon severityIcon(DiagnosticSeverity severity) {
    const QStyle::StandardPixmap pixmap = severity == DiagnosticSeverity::Error     ? QStyle::SP_MessageBoxCritical
                                          : severity == DiagnosticSeverity::Warning ? QStyle::SP_MessageBoxWarning
                                                                                    : QStyle::SP_MessageBoxInformation;
    return QApplication::style()->standardIcon(pixmap);
}

QColor severityColor(DiagnosticSeverity severity, const QPalette& palette) {
    const bool dark = isDark(palette);
    switch (severity) {
        case DiagnosticSeverity::Error:
            return dark ? QColor("#ff6b6b") : QColor("#c0392b");
        case DiagnosticSeverity::Warning:
            return dark ? QColor("#f0b429") : QColor("#a05a00");
        case DiagnosticSeverity::Info:
            break;
    }
    return {};
}

DiagnosticsPanel::DiagnosticsPanel(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    tabs_ = new QTabWidget;
    tabs_->setDocumentMode(true);
    outer->addWidget(tabs_);
    messages_ = new NsysMessagesTable;
    tabs_->addTab(messages_, "Nsight Systems");
    auto* own = new QWidget;
    auto* layout = new QVBoxLayout(own);
    layout->setContentsMargins(4, 4, 4, 4);
    tabs_->addTab(own, "Lanescope");
    summary_ = new QLabel;
    summary_->setTextFormat(Qt::PlainText);
    layout->addWidget(summary_);
    table_ = new QTableWidget(0, ColumnCount);
    table_->setHorizontalHeaderLabels({"Report", "Severity", "Count", "Diagnostic", "Explanation"});
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setAlternatingRowColors(true);
    table_->setWordWrap(false);
    table_->setTextElideMode(Qt::ElideRight);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    table_->setToolTip("What the importer skipped or repaired in each report. Click a header to sort.");
    table_->setSortingEnabled(true);
    layout->addWidget(table_, 1);

    statusButton_ = new QToolButton(this);
    statusButton_->setAutoRaise(true);
    statusButton_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    statusButton_->setObjectName("diagnosticsStatus");
    statusButton_->hide();
    connect(statusButton_, &QToolButton::clicked, this, [this] {
        tabs_->setCurrentIndex(1);
        emit showRequested();
    });
    messagesButton_ = new QToolButton(this);
    messagesButton_->setAutoRaise(true);
    messagesButton_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    messagesButton_->setObjectName("nsysMessagesStatus");
    messagesButton_->hide();
    connect(messagesButton_, &QToolButton::clicked, this, [this] {
        tabs_->setCurrentIndex(0);
        emit showRequested();
    });
    fill();
    fillMessages();
}

void DiagnosticsPanel::fillMessages() {
    messages_->setReports(reports_);
    const size_t n = messages_->messageCount(), serious = messages_->seriousCount();
    tabs_->setTabText(0, QString("Nsight Systems (%1)").arg(n));
    messagesButton_->setVisible(n > 0);
    messagesButton_->setText(QString("%1 Nsight message%2").arg(n).arg(n == 1 ? "" : "s"));
    messagesButton_->setToolTip(QString("Messages Nsight Systems wrote into the report while profiling, %1 of them "
                                        "warnings or errors; click to see them")
                                    .arg(serious));
    messagesButton_->setIcon(severityIcon(serious ? DiagnosticSeverity::Warning : DiagnosticSeverity::Info));
    const QColor color = serious ? severityColor(DiagnosticSeverity::Warning, palette()) : QColor();
    messagesButton_->setStyleSheet(color.isValid() ? QString("QToolButton { color: %1; }").arg(color.name())
                                                   : QString());
}

void DiagnosticsPanel::setReports(std::vector<std::shared_ptr<const Report>> reports) {
    reports_ = std::move(reports);
    fill();
    fillMessages();
}

int DiagnosticsPanel::rowCount() const { return table_->rowCount(); }

void DiagnosticsPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        fill();
        fillMessages();
    }
}

void DiagnosticsPanel::fill() {
    std::vector<Row> rows;
    for (size_t r = 0; r < reports_.size(); ++r)
        for (const auto& [name, count] : reports_[r]->diagnostics)
            rows.push_back({int(r), name, count, describeDiagnostic(name)});
    // Most severe first, then by report and name.
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return a.description.severity > b.description.severity; });

    table_->setSortingEnabled(false);
    table_->clearContents();
    table_->setRowCount(int(rows.size()));
    size_t counts[3] = {0, 0, 0};
    worst_.reset();
    const QLocale locale;
    for (size_t i = 0; i < rows.size(); ++i) {
        const Row& row = rows[i];
        const DiagnosticSeverity severity = row.description.severity;
        ++counts[size_t(severity)];
        if (!worst_ || severity > *worst_) worst_ = severity;
        const int r = int(i);
        const QString title = qs(reportTitle(*reports_[size_t(row.report)]));
        auto* report = new RankedItem(title, qulonglong(row.report));
        report->setToolTip(qs(reports_[size_t(row.report)]->meta.source_path));
        table_->setItem(r, ReportColumn, report);
        auto* sev = new RankedItem(severityLabel(severity), qulonglong(severity));
        sev->setIcon(severityIcon(severity));
        if (const QColor color = severityColor(severity, palette()); color.isValid()) sev->setForeground(color);
        table_->setItem(r, SeverityColumn, sev);
        auto* count = new RankedItem(locale.toString(qulonglong(row.count)), row.count);
        count->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table_->setItem(r, CountColumn, count);
        auto* name = new QTableWidgetItem(qs(row.name));
        table_->setItem(r, NameColumn, name);
        auto* explanation = new QTableWidgetItem(qs(row.description.explanation));
        explanation->setToolTip(qs(row.description.explanation));
        table_->setItem(r, ExplanationColumn, explanation);
        if (!row.description.declared())
            name->setToolTip("Not declared by this version of Lanescope (written by a newer one?)");
    }
    table_->setColumnHidden(ReportColumn, reports_.size() < 2);
    table_->setSortingEnabled(true);
    table_->sortByColumn(SeverityColumn, Qt::DescendingOrder);
    table_->resizeColumnsToContents();
    table_->horizontalHeader()->setStretchLastSection(true);

    // "3 diagnostics: 1 warning, 2 info".
    const size_t total = rows.size();
    QStringList parts;
    if (counts[2]) parts << QString("%1 error%2").arg(counts[2]).arg(counts[2] == 1 ? "" : "s");
    if (counts[1]) parts << QString("%1 warning%2").arg(counts[1]).arg(counts[1] == 1 ? "" : "s");
    if (counts[0]) parts << QString("%1 info").arg(counts[0]);
    const QString count = QString("%1 diagnostic%2").arg(total).arg(total == 1 ? "" : "s");
    tabs_->setTabText(1, QString("Lanescope (%1)").arg(total));
    if (reports_.empty())
        summary_->setText("No report open.");
    else if (total == 0)
        summary_->setText("No diagnostics: the importer skipped or repaired nothing.");
    else
        summary_->setText(count + ": " + parts.join(", ") +
                          ". Info: not shown by design; warning: events skipped or "
                          "changed; error: part of the file is damaged or unread.");

    statusButton_->setVisible(total > 0);
    statusButton_->setText(count);
    statusButton_->setToolTip(total ? count + " (" + parts.join(", ") + ") found while importing; click to see them"
                                    : "What the importer skipped or repaired; click to see the Diagnostics panel");
    if (worst_) statusButton_->setIcon(severityIcon(*worst_));
    const QColor color = worst_ ? severityColor(*worst_, palette()) : QColor();
    statusButton_->setStyleSheet(color.isValid() ? QString("QToolButton { color: %1; }").arg(color.name()) : QString());
}

}  // namespace lanescope
