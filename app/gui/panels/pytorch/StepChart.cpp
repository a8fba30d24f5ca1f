#include "app/gui/panels/pytorch/StepChart.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QStackedBarSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <array>
#include <cstring>

namespace lanescope {
namespace {

// The categories, in the overview's priority order, and their colours.
struct Category {
    const char* header;
    const char* label;
    QRgb color;
};
constexpr std::array<Category, 7> kCategories = {{
    {"Kernel (ns)", "Kernel", 0xff4e9a06},
    {"Memcpy (ns)", "Memcpy", 0xff3465a4},
    {"Memset (ns)", "Memset", 0xff75507b},
    {"Runtime (ns)", "Runtime", 0xfff57900},
    {"DataLoader (ns)", "DataLoader", 0xffcc0000},
    {"CPU Exec (ns)", "CPU Exec", 0xffc4a000},
    {"Other (ns)", "Other", 0xff888a85},
}};

int columnOf(const StatsTable& table, const char* header) {
    const auto it = std::find(table.header.begin(), table.header.end(), header);
    return it == table.header.end() ? -1 : int(it - table.header.begin());
}

double cellMs(const StatsTable::Cell& cell) {
    if (const auto* ns = std::get_if<int64_t>(&cell)) return double(*ns) / 1e6;
    if (const auto* real = std::get_if<StatsTable::Real>(&cell)) return real->value / 1e6;
    return 0;
}

}  // namespace

StepChart::StepChart(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    chart_ = new QChart;
    chart_->legend()->setAlignment(Qt::AlignRight);
    chart_->setMargins(QMargins(2, 2, 2, 2));
    chart_->setTitle("Step time (ms)");
    setToolTip("Each step's span split by priority (docs/analyses.md); click a bar to show the step");
    auto* view = new QChartView(chart_);
    view->setRenderHint(QPainter::Antialiasing);
    layout->addWidget(view);
}

void StepChart::setSteps(const StatsTable& steps) {
    chart_->removeAllSeries();
    for (QAbstractAxis* axis : chart_->axes()) {
        chart_->removeAxis(axis);  // gives up ownership
        delete axis;
    }
    bars_ = 0;
    const int stepColumn = columnOf(steps, "Step");
    if (stepColumn < 0 || steps.rows.empty()) return;
    auto* series = new QStackedBarSeries;
    for (const Category& category : kCategories) {
        const int column = columnOf(steps, category.header);
        if (column < 0) continue;
        auto* set = new QBarSet(category.label);
        set->setColor(QColor::fromRgba(category.color));
        set->setBorderColor(QColor::fromRgba(category.color));
        for (const auto& row : steps.rows) *set << cellMs(row[size_t(column)]);
        series->append(set);
    }
    QStringList names;
    for (const auto& row : steps.rows) {  // "ProfilerStep#7" as "#7": the bars are narrow
        const QString name = QString::fromStdString(formatCell(row[size_t(stepColumn)]));
        names << (name.startsWith("ProfilerStep#") ? name.mid(int(std::strlen("ProfilerStep"))) : name);
    }
    chart_->addSeries(series);
    auto* x = new QBarCategoryAxis;
    x->append(names);
    chart_->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    auto* y = new QValueAxis;
    y->setTitleText("ms");
    y->setLabelFormat("%.1f");
    chart_->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    connect(series, &QStackedBarSeries::clicked, this, [this](int index, QBarSet*) { emit stepClicked(index); });
    bars_ = int(steps.rows.size());
}

}  // namespace lanescope
