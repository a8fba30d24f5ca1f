// The PyTorch "kernels" view: kernels grouped by name, their launch configuration and the
// operator that launched them.
#include "analysis/pytorch/KernelsView.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/Cancellation.h"
#include "model/Correlation.h"

namespace lanescope {
namespace {

// The Kineto importer files a thread's cpu_op events into an NVTX-kind lane of this name.
constexpr std::string_view kCpuOpsLane = "CPU ops";

// A launch configuration as the view shows it: grid x, y, z, block x, y, z, registers per
// thread, shared memory in bytes (static + dynamic). Ordered lexicographically.
using Launch = std::array<uint64_t, 8>;

// What the view gathers of one kernel name. Times in ns.
struct NameTotals {
    uint64_t calls = 0;
    int64_t total = 0;
    int64_t min = std::numeric_limits<int64_t>::max();
    int64_t max = 0;
    std::map<Launch, uint64_t> launches;     // launches per configuration, by configuration
    std::map<uint32_t, uint64_t> operators;  // launches per operator name id, by name id
    // Of the launches whose occupancy the trace records: their count, the sum of occupancy (%)
    // times duration (ns), of durations (ns) and of occupancies (%).
    uint64_t occupancyCalls = 0;
    double occupancyTimesDuration = 0, occupancyDuration = 0, occupancySum = 0;
};

// The duration-weighted mean occupancy (%) of the launches that record one (their plain mean
// when they all last 0 ns), or "unknown" when none does.
StatsTable::Cell occupancyCell(const NameTotals& t) {
    if (t.occupancyCalls == 0) return std::string("unknown");
    if (t.occupancyDuration > 0) return StatsTable::Real{t.occupancyTimesDuration / t.occupancyDuration, 2};
    return StatsTable::Real{t.occupancySum / static_cast<double>(t.occupancyCalls), 2};
}

// Per thread (index into Report::threads), the lane of its cpu_op events; -1 where it has none.
std::vector<int64_t> cpuOpLanes(const Report& report) {
    std::vector<int64_t> lanes(report.threads.size(), -1);
    for (size_t l = 0; l < report.lanes.size(); ++l) {
        const Lane& lane = report.lanes[l];
        if (lane.kind == LaneKind::Nvtx && lane.thread >= 0 && report.str(lane.name_id) == kCpuOpsLane)
            lanes[static_cast<size_t>(lane.thread)] = static_cast<int64_t>(l);
    }
    return lanes;
}

// The innermost event of `lane` containing [start, end] (its start <= start and end <= its
// end): the deepest depth holding one.
std::optional<uint32_t> innermostContaining(const Lane& lane, int64_t start, int64_t end) {
    for (size_t d = lane.depth_count; d-- > 0;) {
        const DepthEvents events = lane.atDepth(d);
        const auto after = std::partition_point(events.begin(), events.end(),
                                                [&](uint32_t i) { return lane.events.start_ns[i] <= start; });
        if (after != events.begin() && lane.events.endNs(*(after - 1)) >= end) return *(after - 1);
    }
    return std::nullopt;
}

// The name id of the operator that launched a kernel, if the launching call lies in one.
std::optional<uint32_t> launchingOperator(const Report& report, const CorrelationIndex& index,
                                          const std::vector<int64_t>& opLanes, EventRef kernel) {
    const std::optional<EventRef> call = index.launcherOf(kernel);
    if (!call) return std::nullopt;
    const Lane& apiLane = report.lanes[call->lane];
    if (apiLane.thread < 0 || opLanes[static_cast<size_t>(apiLane.thread)] < 0) return std::nullopt;
    const Lane& ops = report.lanes[static_cast<size_t>(opLanes[static_cast<size_t>(apiLane.thread)])];
    const std::optional<uint32_t> op =
        innermostContaining(ops, apiLane.events.start_ns[call->index], apiLane.events.endNs(call->index));
    if (!op) return std::nullopt;
    return ops.events.name_id[*op];
}

std::string triple(uint64_t x, uint64_t y, uint64_t z) {
    return std::to_string(x) + "x" + std::to_string(y) + "x" + std::to_string(z);
}

bool containsFolded(std::string_view text, std::string_view lowerNeedle) {
    return std::search(text.begin(), text.end(), lowerNeedle.begin(), lowerNeedle.end(),
                       [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; }) != text.end();
}

StatsTable::Cell operatorCell(const Report& report, const std::map<uint32_t, uint64_t>& operators) {
    if (operators.empty()) return std::string("unknown");
    // The operator launching most; ties by name.
    const auto best = std::min_element(operators.begin(), operators.end(), [&](const auto& a, const auto& b) {
        if (a.second != b.second) return a.second > b.second;
        return report.str(a.first) < report.str(b.first);
    });
    return std::string(report.str(best->first)) + " (" + std::to_string(best->second) + ")";
}

}  // namespace

std::string_view tensorCoresByName(std::string_view kernelName) {
    static constexpr std::string_view yes[] = {"tensorop", "hmma",  "imma",  "gmma",   "tf32",   "h884",
                                               "s884",     "h1688", "s1688", "h16816", "s16816", "i8816"};
    static constexpr std::string_view no[] = {"simt", "ffma", "sgemm"};
    for (std::string_view pattern : yes)
        if (containsFolded(kernelName, pattern)) return "yes";
    for (std::string_view pattern : no)
        if (containsFolded(kernelName, pattern)) return "no";
    return "unknown";
}

KernelsView pytorchKernels(const Report& report) {
    KernelsView view;
    view.table.name = "pytorch_kernels";
    view.table.header = {"Name",
                         "Calls",
                         "Total (ns)",
                         "Mean (ns)",
                         "Min (ns)",
                         "Max (ns)",
                         "Grid",
                         "Block",
                         "Registers Per Thread",
                         "Shared Memory (B)",
                         "Est. Achieved Occupancy (%)",
                         "Tensor Cores",
                         "Operator"};

    const CorrelationIndex& index = correlationIndex(report);
    const std::vector<int64_t> opLanes = cpuOpLanes(report);
    std::unordered_map<uint32_t, NameTotals> byName;  // by kernel name id
    uint64_t seen = 0;
    for (size_t l = 0; l < report.lanes.size(); ++l) {
        const Lane& lane = report.lanes[l];
        if (lane.kind != LaneKind::GpuStream) continue;
        for (size_t i = 0; i < lane.events.size(); ++i) {
            if (lane.events.kind[i] != EventKind::Kernel) continue;
            if ((++seen & 0xFFFF) == 0) cancellationPoint();
            NameTotals& t = byName[lane.events.name_id[i]];
            const int64_t duration = lane.events.durationNs(i);
            ++t.calls;
            t.total += duration;
            t.min = std::min(t.min, duration);
            t.max = std::max(t.max, duration);
            const KernelConfig& c = report.kernel_configs[report.kernels[lane.events.payload[i]].config];
            ++t.launches[{c.grid[0], c.grid[1], c.grid[2], c.block[0], c.block[1], c.block[2], c.registers_per_thread,
                          uint64_t{c.static_shared_bytes} + c.dynamic_shared_bytes}];
            if (c.est_achieved_occupancy_pct >= 0) {
                ++t.occupancyCalls;
                t.occupancyTimesDuration += double{c.est_achieved_occupancy_pct} * static_cast<double>(duration);
                t.occupancyDuration += static_cast<double>(duration);
                t.occupancySum += c.est_achieved_occupancy_pct;
            }
            const EventRef kernel{static_cast<uint32_t>(l), static_cast<uint32_t>(i)};
            if (const std::optional<uint32_t> op = launchingOperator(report, index, opLanes, kernel))
                ++t.operators[*op];
        }
    }
    if (byName.empty()) {
        view.missing =
            "no GPU kernels: the trace records none (a PyTorch trace has them when the profiler's activities "
            "include ProfilerActivity.CUDA)";
        return view;
    }

    std::vector<std::pair<uint32_t, const NameTotals*>> order;  // (name id, totals), sorted below
    order.reserve(byName.size());
    for (const auto& [name, totals] : byName) order.emplace_back(name, &totals);
    std::sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
        if (a.second->total != b.second->total) return a.second->total > b.second->total;
        return report.str(a.first) < report.str(b.first);
    });
    for (const auto& [name, t] : order) {
        // The most frequent configuration; ties by the smaller configuration.
        const auto common = std::max_element(t->launches.begin(), t->launches.end(),
                                             [](const auto& a, const auto& b) { return a.second < b.second; });
        const Launch& c = common->first;
        std::string grid = triple(c[0], c[1], c[2]);
        if (t->launches.size() > 1) grid += " (most of " + std::to_string(t->launches.size()) + " configs)";
        const std::string_view text = report.str(name);
        view.table.rows.push_back({std::string(text), static_cast<int64_t>(t->calls), t->total,
                                   StatsTable::Real{static_cast<double>(t->total) / static_cast<double>(t->calls), 1},
                                   t->min, t->max, std::move(grid), triple(c[3], c[4], c[5]),
                                   static_cast<int64_t>(c[6]), static_cast<int64_t>(c[7]), occupancyCell(*t),
                                   std::string(tensorCoresByName(text)), operatorCell(report, t->operators)});
    }
    return view;
}

}  // namespace lanescope
