#pragma once
#include <QString>
#include <QWidget>
#include <algorithm>
#include <cstdint>
#include <functional>

#include "analysis/StatsTable.h"

class QIODevice;
class QLabel;
class QLineEdit;
class QTableView;

namespace lanescope {

class StatsTableModel;

// A StatsTable shown as the Statistics panel shows one: a filter line over a table that sorts
// numbers as numbers (click a header), copies the selected rows (or all) as CSV with Ctrl+C,
// and exports as CSV. Holds the table it shows.
class StatsTableView : public QWidget {
    Q_OBJECT
public:
    explicit StatsTableView(QWidget* parent = nullptr);
    // Shows `table`, in its own row order until a header is clicked: its first kShownRows rows
    // (a header click sorts those), all of them copied by Export CSV.
    void setTable(StatsTable table);
    static constexpr size_t kShownRows = 20000;
    // The table shown is the start of a whole one of `rows` rows, which `whole` makes (off the
    // GUI thread) when Export CSV asks for it. Reset by setTable.
    void setWhole(size_t rows, std::function<StatsTable()> whole);
    // The same, for a whole table too large to hold: `writeCsv` writes it as CSV to the file
    // (off the GUI thread) as it makes its rows, and says whether every write succeeded.
    void setWholeCsv(size_t rows, std::function<bool(QIODevice& file)> writeCsv);
    // Rows of the whole table left out of the view.
    size_t hiddenRows() const;
    // " (the first N of M rows shown; Export CSV writes all)" when rows are left out, else empty.
    QString hiddenRowsNote() const;
    // The rows of the whole table.
    size_t wholeRows() const { return std::max(wholeRows_, table().rows.size()); }
    const StatsTable& table() const;
    QTableView* view() const { return view_; }
    // The row of table() behind a row of the view (which may be sorted and filtered).
    int tableRow(int viewRow) const;
    // Copies the selected rows, or all rows, as CSV with the header.
    void copyRows();
    // Asks for a file and writes the whole table as CSV (`suggestedName`.csv offered).
    void exportCsv(const QString& suggestedName);

signals:
    // A row was activated (clicked or Enter), as a row of table().
    void rowActivated(int tableRow);

private:
    QLineEdit* filter_;
    QTableView* view_;
    QLabel* exporting_;       // under the table while a whole table is written, and its outcome
    StatsTableModel* model_;  // holds the table
    size_t wholeRows_ = 0;
    std::function<bool(QIODevice&)> wholeCsv_;  // empty: the table held is whole
};

// The rows of `view` (the selected ones, or all) as CSV with the header, in view order.
QString rowsAsCsv(const QTableView& view);

}  // namespace lanescope
