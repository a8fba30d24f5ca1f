#include "app/gui/panels/diagnostics/NsysMessagesTable.h"

#include <QHeaderView>
#include <QLocale>

#include "app/gui/panels/diagnostics/DiagnosticsPanel.h"
#include "timeline/QtText.h"

namespace lanescope {
namespace {

// Sorts by the number in Qt::UserRole (time, severity, report) instead of the text.
class NumberedItem : public QTableWidgetItem {
public:
    NumberedItem(const QString& text, qlonglong number) : QTableWidgetItem(text) { setData(Qt::UserRole, number); }
    bool operator<(const QTableWidgetItem& other) const override {
        return data(Qt::UserRole).toLongLong() < other.data(Qt::UserRole).toLongLong();
    }
};

// ENUM_DIAGNOSTIC_SEVERITY_LEVEL as Lanescope's severities, for the icon and colour.
DiagnosticSeverity severityOf(uint8_t level) {
    return level == 3 ? DiagnosticSeverity::Error : level == 2 ? DiagnosticSeverity::Warning : DiagnosticSeverity::Info;
}

}  // namespace

NsysMessagesTable::NsysMessagesTable(QWidget* parent) : QTableWidget(0, ColumnCount, parent) {
    setHorizontalHeaderLabels({"Report", "Time", "Severity", "Source", "Message"});
    verticalHeader()->hide();
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setAlternatingRowColors(true);
    setWordWrap(false);
    setTextElideMode(Qt::ElideRight);
    horizontalHeader()->setStretchLastSection(true);
    horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    setToolTip("What Nsight Systems itself wrote into each report while profiling. Click a header to sort.");
    setSortingEnabled(true);
}

void NsysMessagesTable::setReports(const std::vector<std::shared_ptr<const Report>>& reports) {
    setSortingEnabled(false);
    clearContents();
    messages_ = serious_ = 0;
    for (const auto& r : reports) messages_ += r->nsys_messages.size();
    setRowCount(int(messages_));
    const QLocale locale;
    int row = 0;
    for (size_t ri = 0; ri < reports.size(); ++ri) {
        const Report& report = *reports[ri];
        for (const NsysMessage& m : report.nsys_messages) {
            const DiagnosticSeverity severity = severityOf(m.severity);
            serious_ += severity != DiagnosticSeverity::Info;
            auto* title = new NumberedItem(qs(reportTitle(report)), qlonglong(ri));
            title->setToolTip(qs(report.meta.source_path));
            setItem(row, ReportColumn, title);
            // Times before the session's start (the profiler setting up) are negative.
            auto* time = new NumberedItem(locale.toString(double(m.time_ns) / 1e9, 'f', 6) + " s", m.time_ns);
            time->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            setItem(row, TimeColumn, time);
            QString label = qs(nsysMessageSeverityName(m.severity));
            label[0] = label[0].toUpper();
            auto* sev = new NumberedItem(label, m.severity);
            sev->setIcon(severityIcon(severity));
            if (const QColor c = severityColor(severity, palette()); c.isValid()) sev->setForeground(c);
            setItem(row, SeverityColumn, sev);
            QString source = qs(nsysMessageSourceName(m.source));
            source[0] = source[0].toUpper();
            setItem(row, SourceColumn, new QTableWidgetItem(source));
            QString text = qs(m.text).simplified();  // nsys separates counts with tabs
            auto* message = new QTableWidgetItem(text);
            message->setToolTip(text);
            setItem(row, TextColumn, message);
            ++row;
        }
    }
    setColumnHidden(ReportColumn, reports.size() < 2);
    setSortingEnabled(true);
    sortByColumn(TimeColumn, Qt::AscendingOrder);
    resizeColumnsToContents();
    horizontalHeader()->setStretchLastSection(true);
}

}  // namespace lanescope
