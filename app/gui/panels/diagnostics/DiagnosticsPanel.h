#pragma once
#include <QIcon>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "model/DiagnosticKinds.h"
#include "model/Report.h"

class QLabel;
class QTabWidget;
class QTableWidget;
class QToolButton;

namespace lanescope {

class NsysMessagesTable;

// Two tabs. "Nsight Systems": the messages Nsight Systems wrote into the open reports
// (NsysMessagesTable). "Lanescope": the diagnostics of every open report (what the importer
// skipped or repaired), each with its severity (icon and colour), count and a one-line
// explanation from model/DiagnosticKinds, most severe first; every column sorts. Two status
// buttons sit in the status bar, each hidden while it has nothing to count: "3 diagnostics" and
// "19 Nsight messages", in a warning colour when any is a warning or an error; clicking one
// shows its tab and emits showRequested.
class DiagnosticsPanel : public QWidget {
    Q_OBJECT
public:
    enum Column { ReportColumn, SeverityColumn, CountColumn, NameColumn, ExplanationColumn, ColumnCount };

    explicit DiagnosticsPanel(QWidget* parent = nullptr);
    void setReports(std::vector<std::shared_ptr<const Report>> reports);
    int rowCount() const;
    QTableWidget* table() const { return table_; }
    NsysMessagesTable* messages() const { return messages_; }
    // For the status bar; owned by whoever adds it there.
    QToolButton* statusButton() const { return statusButton_; }
    QToolButton* messagesButton() const { return messagesButton_; }
    std::optional<DiagnosticSeverity> worstSeverity() const { return worst_; }

signals:
    void showRequested();

protected:
    void changeEvent(QEvent* event) override;  // a new theme: the severity colours follow

private:
    void fill();
    void fillMessages();

    std::vector<std::shared_ptr<const Report>> reports_;
    QLabel* summary_;
    QTabWidget* tabs_;
    NsysMessagesTable* messages_;
    QTableWidget* table_;
    QToolButton* statusButton_;
    QToolButton* messagesButton_;
    std::optional<DiagnosticSeverity> worst_;
};

// A severity's icon (the style's critical, warning or information icon).
QIcon severityIcon(DiagnosticSeverity severity);
// The colour a severity is shown in on this palette (light or dark); invalid for Info, which
// keeps the palette's text colour.
QColor severityColor(DiagnosticSeverity severity, const QPalette& palette);

}  // namespace lanescope
