#pragma once
#include <QTableWidget>
#include <memory>
#include <vector>

#include "model/Report.h"

namespace lanescope {

// Nsight Systems' own messages of every open report (Report::nsys_messages: "No CUDA events
// collected…", the counts of events it collected or lost), one row each with its report, time,
// severity, source and text, in each report's order; every column sorts. Apart from
// Lanescope's diagnostics, which say what the importer noticed.
class NsysMessagesTable : public QTableWidget {
    Q_OBJECT
public:
    enum Column { ReportColumn, TimeColumn, SeverityColumn, SourceColumn, TextColumn, ColumnCount };

    explicit NsysMessagesTable(QWidget* parent = nullptr);
    void setReports(const std::vector<std::shared_ptr<const Report>>& reports);
    // How many messages are shown, and how many of them are warnings or errors.
    size_t messageCount() const { return messages_; }
    size_t seriousCount() const { return serious_; }

private:
    size_t messages_ = 0, serious_ = 0;
};

}  // namespace lanescope
