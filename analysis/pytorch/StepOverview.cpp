// TensorBoard's Overview: each step's span split by priority into GPU, runtime, data loading and
// CPU time, with the kernels' utilization estimates.
#include "analysis/pytorch/StepOverview.h"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "analysis/pytorch/StepSpans.h"
#include "analysis/pytorch/StepTimeSplit.h"

namespace lanescope {
namespace {

using Windows = std::vector<std::pair<int64_t, int64_t>>;  // [start, end) in ns, disjoint, by start

constexpr std::array<const char*, kStepCategories> kCategoryColumns = {
    "Kernel (ns)", "Memcpy (ns)", "Memset (ns)", "Runtime (ns)", "DataLoader (ns)", "CPU Exec (ns)"};

// Per step, the kernels' estimates weighted by the ns each kernel runs inside the step.
struct KernelEstimates {
    std::vector<double> sm_weighted;         // sum of min(blocks per SM, 1) × ns
    std::vector<bool> sm_recorded;           // some kernel in the step records blocks per SM
    std::vector<double> occupancy_weighted;  // sum of est. achieved occupancy % × ns
    std::vector<int64_t> occupancy_ns;       // the ns of the kernels recording it
};

// One pass per GPU stream lane: its kernels are in start order, so the first window a kernel
// can overlap only moves forward.
KernelEstimates kernelEstimates(const Report& report, const Windows& windows) {
    KernelEstimates est;
    est.sm_weighted.assign(windows.size(), 0.0);
    est.sm_recorded.assign(windows.size(), false);
    est.occupancy_weighted.assign(windows.size(), 0.0);
    est.occupancy_ns.assign(windows.size(), 0);
    for (const Lane& lane : report.lanes) {
        if (lane.kind != LaneKind::GpuStream) continue;
        const IntervalColumns& ev = lane.events;
        size_t first = 0;  // the first window ending after the kernel's start
        for (size_t i = 0; i < ev.size(); ++i) {
            if (ev.kind[i] != EventKind::Kernel || ev.payload[i] >= report.kernels.size()) continue;
            const KernelConfig& config = report.kernel_configs[report.kernels[ev.payload[i]].config];
            const int64_t start = ev.start_ns[i], end = ev.endNs(i);
            while (first < windows.size() && windows[first].second <= start) ++first;
            for (size_t w = first; w < windows.size() && windows[w].first < end; ++w) {
                const int64_t ns = std::min(end, windows[w].second) - std::max(start, windows[w].first);
                if (ns <= 0) continue;
                if (config.blocks_per_sm >= 0) {
                    est.sm_weighted[w] += std::min(double(config.blocks_per_sm), 1.0) * double(ns);
                    est.sm_recorded[w] = true;
                }
                if (config.est_achieved_occupancy_pct >= 0) {
                    est.occupancy_weighted[w] += double(config.est_achieved_occupancy_pct) * double(ns);
                    est.occupancy_ns[w] += ns;
                }
            }
        }
    }
    return est;
}

StatsTable::Real percent(double value) { return {value, 2}; }

StatsTable summaryOf(const Report& report, const StepSpans& spans) {
    StatsTable summary;
    summary.name = "pytorch_overview_summary";
    summary.header = {"Steps", "Min Step (ns)", "Median Step (ns)", "Max Step (ns)", "Slowest Step"};
    if (spans.steps.empty()) return summary;
    std::vector<int64_t> durations;
    size_t slowest = 0;
    for (size_t k = 0; k < spans.steps.size(); ++k) {
        durations.push_back(spans.steps[k].end_ns - spans.steps[k].start_ns);
        if (durations[k] > durations[slowest]) slowest = k;
    }
    const std::string slowestName =
        spans.whole_trace ? "(whole trace)" : std::string(report.strings.str(spans.steps[slowest].name_id));
    std::vector<int64_t> sorted = durations;
    std::sort(sorted.begin(), sorted.end());
    const size_t n = sorted.size();
    const int64_t median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    summary.rows.push_back({int64_t(n), sorted.front(), median, sorted.back(), slowestName});
    return summary;
}

std::string missingOf(const Report& report, const StepSpans& spans) {
    std::string missing;
    if (spans.steps.empty()) return "the report records no events: no steps to show";
    if (spans.whole_trace)
        missing =
            "no ProfilerStep#N ranges (torch.profiler records one per prof.step() call): the whole trace is one step";
    if (report.kernels.empty() && report.memcpys.empty() && report.memsets.empty())
        missing += std::string(missing.empty() ? "" : "; ") +
                   "no GPU work (kernels, memcpy, memset): Kernel, Memcpy, Memset and GPU Utilization are 0";
    return missing;
}

}  // namespace

StepOverview pytorchStepOverview(const Report& report) {
    StepOverview view;
    const StepSpans spans = stepSpans(report);
    Windows windows;
    for (const StepSpan& step : spans.steps) windows.emplace_back(step.start_ns, step.end_ns);
    const auto times = splitStepTime(report, windows);
    const KernelEstimates est = kernelEstimates(report, windows);

    view.steps.name = "pytorch_overview";
    view.steps.header = {"Step", "Start (ns)", "Duration (ns)"};
    view.steps.header.insert(view.steps.header.end(), kCategoryColumns.begin(), kCategoryColumns.end());
    view.steps.header.insert(view.steps.header.end(), {"Other (ns)", "GPU Utilization (%)", "Est. SM Efficiency (%)",
                                                       "Est. Achieved Occupancy (%)"});
    for (size_t w = 0; w < windows.size(); ++w) {
        const int64_t duration = windows[w].second - windows[w].first;
        std::vector<StatsTable::Cell> row = {
            spans.whole_trace ? "(whole trace)" : std::string(report.strings.str(spans.steps[w].name_id)),
            windows[w].first, duration};
        int64_t other = duration;
        for (size_t c = 0; c < kStepCategories; ++c) {
            row.emplace_back(times[c][w]);
            other -= times[c][w];
        }
        row.emplace_back(other);
        const double share = duration > 0 ? 100.0 / double(duration) : 0.0;
        row.emplace_back(percent(double(times[size_t(StepCategory::Kernel)][w]) * share));
        row.emplace_back(est.sm_recorded[w] ? StatsTable::Cell(percent(est.sm_weighted[w] * share))
                                            : StatsTable::Cell(std::string()));
        row.emplace_back(est.occupancy_ns[w] > 0
                             ? StatsTable::Cell(percent(est.occupancy_weighted[w] / double(est.occupancy_ns[w])))
                             : StatsTable::Cell(std::string()));
        view.steps.rows.push_back(std::move(row));
    }
    view.summary = summaryOf(report, spans);
    view.missing = missingOf(report, spans);
    return view;
}

}  // namespace lanescope
