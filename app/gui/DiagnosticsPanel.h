#pragma once
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "model/DiagnosticKinds.h"
#include "model/Report.h"

class QLabel;
class QTableWidget;
class QToolButton;

namespace lanescope {

// What Nsight Systems calls its messages: the diagnostics of every open report (what the
// importer skipped or repaired), each with its severity (icon and colour), count and a one-line
// explanation from model/DiagnosticKinds, most severe first; every column sorts. Its status
// button ("3 diagnostics", in a warning colour when any is a warning or an error) sits in the
// status bar, hidden while there are none; clicking it emits showRequested.
class DiagnosticsPanel : public QWidget {
    Q_OBJECT
public:
    enum Column { ReportColumn, SeverityColumn, CountColumn, NameColumn, ExplanationColumn, ColumnCount };

    explicit DiagnosticsPanel(QWidget* parent = nullptr);
    void setReports(std::vector<std::shared_ptr<const Report>> reports);
    int rowCount() const;
    QTableWidget* table() const { return table_; }
    // For the status bar; owned by whoever adds it there.
    QToolButton* statusButton() const { return statusButton_; }
    std::optional<DiagnosticSeverity> worstSeverity() const { return worst_; }

signals:
    void showRequested();

protected:
    void changeEvent(QEvent* event) override;  // a new theme: the severity colours follow

private:
    void fill();

    std::vector<std::shared_ptr<const Report>> reports_;
    QLabel* summary_;
    QTableWidget* table_;
    QToolButton* statusButton_;
    std::optional<DiagnosticSeverity> worst_;
};

// The colour a severity is shown in on this palette (light or dark); invalid for Info, which
// keeps the palette's text colour.
QColor severityColor(DiagnosticSeverity severity, const QPalette& palette);

}  // namespace lanescope
