#pragma once
// What the two files of the Ranks panel share (ComparePanel.cpp builds it and computes,
// ComparePanelResults.cpp shows the results): cells, tables, charts.
#include <QChart>
#include <QGraphicsLayout>
#include <QHeaderView>
#include <QString>
#include <QTableWidget>
#include <string>

#include "model/Find.h"
#include "model/Report.h"
#include "timeline/QtText.h"

namespace lanescope::compare_ui {

inline QString ms(int64_t ns) { return QString::number(double(ns) / 1e6, 'f', 3); }
inline QString pct(double share) { return QString::number(share * 100, 'f', 1); }

inline QTableWidgetItem* cell(const QString& text, bool number) {
    auto* item = new QTableWidgetItem(text);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

// A cell of the ranks table, sorted by its key (a number) rather than its text.
class SortCell : public QTableWidgetItem {
public:
    SortCell(const QString& text, double key, bool number) : QTableWidgetItem(text) {
        setData(Qt::UserRole, key);
        setFlags(flags() & ~Qt::ItemIsEditable);
        if (number) setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem& other) const override {
        return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
    }
};

constexpr int kReportRole = Qt::UserRole + 1;  // the ranks table's column 0: the report's index
constexpr size_t kChartRanksMax = 8;           // more ranks: no bar charts
constexpr int kFewRanksRowPx = 16;             // the heat map's rows beside the charts
constexpr int kHeatMapFramePx = 80;            // its bar, step numbers and legend

inline QTableWidget* makeTable(const QStringList& header, const QString& tip) {
    auto* t = new QTableWidget(0, int(header.size()));
    t->setHorizontalHeaderLabels(header);
    t->verticalHeader()->hide();
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setAlternatingRowColors(true);
    t->setToolTip(tip);
    return t;
}

inline QChart* makeChart(const QString& title) {
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(0, 0, 0, 0));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    QFont font = chart->titleFont();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    chart->setTitleFont(font);
    return chart;
}

// Whether a report holds the event a summary names (it may be another version of the file).
inline bool holds(const Report& report, EventRef ref) {
    return ref.lane < report.lanes.size() && ref.index < report.lanes[ref.lane].events.size();
}

inline void clear(QChart* chart) {
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

}  // namespace lanescope::compare_ui
