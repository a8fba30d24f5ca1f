#include "app/gui/panels/gaps/GapsPanel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "timeline/QtText.h"
#include "timeline/TimeFormat.h"

namespace lanescope {
namespace {

struct Preset {
    const char* label;
    double ms;
};
constexpr Preset kPresets[] = {
    {"Bubbles: 1 ms", 1.0}, {"Nsight: 500 ms", 500.0}, {"HTA: 30 ns kernel-to-kernel", 0.00003}, {"Custom", -1}};

// The deepest NVTX range of a process's threads covering time t, if any.
std::optional<ViewEvent> nvtxAt(const Report& r, int report, int32_t process, int64_t t) {
    std::optional<ViewEvent> best;
    int bestDepth = -1;
    for (uint32_t li = 0; li < r.lanes.size(); ++li) {
        const Lane& lane = r.lanes[li];
        if (lane.kind != LaneKind::Nvtx || lane.process != process) continue;
        for (int d = lane.depth_count - 1; d > bestDepth; --d) {
            if (const std::optional<uint32_t> e = lane.eventAt(static_cast<size_t>(d), t)) {
                best = ViewEvent{report, li, *e};
                bestDepth = d;
                break;
            }
        }
    }
    return best;
}

}  // namespace

GapsPanel::GapsPanel(ViewSession* session, QWidget* parent) : QWidget(parent), session_(session) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    presets_ = new QComboBox;
    for (const Preset& p : kPresets) presets_->addItem(p.label);
    presets_->setToolTip("Threshold presets: a gap is GPU idle time longer than this");
    threshold_ = new QDoubleSpinBox;
    threshold_->setDecimals(5);
    threshold_->setRange(0, 1e6);
    threshold_->setSuffix(" ms");
    threshold_->setValue(1.0);
    threshold_->setToolTip("Minimum idle time between GPU operations of one process and GPU");
    summary_ = new QLabel;
    top->addWidget(new QLabel("GPU idle longer than"));
    top->addWidget(threshold_);
    top->addWidget(presets_);
    top->addWidget(summary_, 1);
    layout->addLayout(top);
    model_ = new GapTableModel(this);
    table_ = new QTableView;
    table_->setModel(model_);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->horizontalHeader()->setResizeContentsPrecision(40);  // size columns from 40 rows
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setAlternatingRowColors(true);
    table_->setToolTip("Click a gap to zoom to it and select what the CPU was doing");
    layout->addWidget(table_, 1);
    connect(presets_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (kPresets[i].ms >= 0) threshold_->setValue(kPresets[i].ms);
    });
    connect(threshold_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        const auto preset =
            std::find_if(std::begin(kPresets), std::end(kPresets), [&](const Preset& p) { return p.ms == v; });
        const QSignalBlocker block(presets_);
        const int custom = int(std::size(kPresets)) - 1;
        presets_->setCurrentIndex(preset == std::end(kPresets) ? custom : int(preset - std::begin(kPresets)));
        recompute();
    });
    connect(table_, &QTableView::clicked, this, [this](const QModelIndex& index) { activateGap(index.row()); });
    connect(session_, &ViewSession::reportsChanged, this, [this] {
        reports_ = session_->reports();
        recompute();
    });
}

void GapsPanel::setThresholdMs(double ms) { threshold_->setValue(ms); }

void GapsPanel::computeNow() {
    GapOptions options;
    options.gap_ms = threshold_->value();
    options.rows = -1;
    options.graphs_busy = true;  // a graph replay is GPU work (nsys's rule leaves it out: docs/analyses.md)
    auto reports = reports_;
    using Result = std::vector<FoundGap>;
    task_.run(
        [reports, options] {
            Result found;
            for (size_t r = 0; r < reports.size(); ++r)
                for (GpuGap& g : findGpuGaps(*reports[r], options)) found.push_back({int(r), std::move(g)});
            std::stable_sort(found.begin(), found.end(), [](const FoundGap& a, const FoundGap& b) {
                return a.gap.duration_ns > b.gap.duration_ns;
            });
            return found;
        },
        [this, reports](Result found) {
            model_->setGaps(reports, std::move(found));
            showSummary();
        });
}

void GapsPanel::showSummary() {
    const std::vector<FoundGap>& gaps = model_->gaps();
    int64_t idle = 0;
    for (const FoundGap& f : gaps) idle += f.gap.duration_ns;
    table_->resizeColumnsToContents();  // from the first rows only (the header's precision)
    summary_->setText(gaps.empty()
                          ? "  no gaps"
                          : QString("  %1 gaps, %2 idle in all").arg(gaps.size()).arg(qs(formatDuration(idle))));
}

void GapsPanel::activateGap(int row) {
    const std::vector<FoundGap>& gaps = model_->gaps();
    if (row < 0 || row >= int(gaps.size())) return;
    const FoundGap& f = gaps[size_t(row)];
    const GpuGap& g = f.gap;
    const int64_t margin = std::max<int64_t>(g.duration_ns / 5, 1000);
    const int64_t start = g.start_ns + session_->offset(f.report);  // on the shared timeline
    session_->zoomTo(start - margin, start + g.duration_ns + margin);
    session_->setSelectedRange(std::make_pair(start, start + g.duration_ns));
    const Report& r = *model_->reports()[size_t(f.report)];
    std::optional<ViewEvent> cause;
    if (g.blocking_call)
        cause = ViewEvent{f.report, g.blocking_call->lane, g.blocking_call->index};
    else
        cause = nvtxAt(r, f.report, g.process, g.start_ns + g.duration_ns / 2);
    if (cause) session_->selectEvent(cause);
}

}  // namespace lanescope
