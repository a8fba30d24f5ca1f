// The steps of a PyTorch trace: ProfilerStep#N ranges, stretched over the GPU work they launched.
#include "analysis/pytorch/StepSpans.h"

#include <algorithm>
#include <limits>
#include <tuple>

#include "model/Correlation.h"

namespace lanescope {
namespace {

constexpr int64_t kNoTime = std::numeric_limits<int64_t>::min();

// A ProfilerStep#N range on a CPU thread, in ns.
struct CpuStep {
    int64_t start_ns = 0, end_ns = 0;
    uint32_t name_id = 0;
};

// The ProfilerStep#N ranges of every Nvtx lane (Kineto: user_annotation, cpu_op and
// python_function events), sorted by start, then end, then name id, each once.
std::vector<CpuStep> cpuSteps(const Report& report) {
    OverviewNames names(report);
    std::vector<CpuStep> steps;
    for (const Lane& lane : report.lanes) {
        if (lane.kind != LaneKind::Nvtx) continue;
        const IntervalColumns& ev = lane.events;
        for (size_t i = 0; i < ev.size(); ++i)
            if (names.of(ev.name_id[i]) == OverviewName::ProfilerStep)
                steps.push_back({ev.start_ns[i], ev.endNs(i), ev.name_id[i]});
    }
    std::sort(steps.begin(), steps.end(), [](const CpuStep& a, const CpuStep& b) {
        return std::tie(a.start_ns, a.end_ns, a.name_id) < std::tie(b.start_ns, b.end_ns, b.name_id);
    });
    // A step recorded twice (as user_annotation and cpu_op, or on two lanes) is one step.
    steps.erase(std::unique(steps.begin(), steps.end(),
                            [](const CpuStep& a, const CpuStep& b) {
                                return std::tie(a.start_ns, a.end_ns, a.name_id) ==
                                       std::tie(b.start_ns, b.end_ns, b.name_id);
                            }),
                steps.end());
    return steps;
}

// Per step, the latest end of the kernels, memcpys and memsets launched (same correlation id)
// by a CUDA API call lying inside the step's CPU range; kNoTime where none.
std::vector<int64_t> launchedGpuEnds(const Report& report, const std::vector<CpuStep>& steps) {
    std::vector<int64_t> ends(steps.size(), kNoTime);
    const CorrelationIndex& index = correlationIndex(report);
    for (uint32_t l = 0; l < report.lanes.size(); ++l) {
        const Lane& lane = report.lanes[l];
        if (lane.kind != LaneKind::CudaApi) continue;
        const IntervalColumns& calls = lane.events;
        CorrelationIndex::Cursor cursor;
        size_t step = 0;  // the first step starting after the call, minus one
        for (uint32_t c = 0; c < calls.size(); ++c) {
            while (step < steps.size() && steps[step].start_ns <= calls.start_ns[c]) ++step;
            if (step == 0 || calls.endNs(c) > steps[step - 1].end_ns) continue;
            int64_t& end = ends[step - 1];
            index.forEachLaunched({l, c}, cursor, [&](EventRef op) {
                const IntervalColumns& ops = report.lanes[op.lane].events;
                const EventKind kind = ops.kind[op.index];
                if (kind == EventKind::Kernel || kind == EventKind::Memcpy || kind == EventKind::Memset)
                    end = std::max(end, ops.endNs(op.index));
            });
        }
    }
    return ends;
}

}  // namespace

OverviewName overviewNameOf(std::string_view name) {
    if (name.starts_with("ProfilerStep#")) return OverviewName::ProfilerStep;
    if (name.starts_with("enumerate(DataLoader)")) return OverviewName::DataLoader;
    return OverviewName::Plain;
}

OverviewNames::OverviewNames(const Report& report) : report_(report), known_(report.strings.size(), 0) {}

OverviewName OverviewNames::of(uint32_t nameId) {
    if (nameId >= known_.size()) return overviewNameOf(report_.strings.str(nameId));
    if (known_[nameId] == 0)
        known_[nameId] = static_cast<uint8_t>(static_cast<uint8_t>(overviewNameOf(report_.strings.str(nameId))) + 1);
    return static_cast<OverviewName>(known_[nameId] - 1);
}

StepSpans stepSpans(const Report& report) {
    StepSpans spans;
    const std::vector<CpuStep> steps = cpuSteps(report);
    if (steps.empty()) {
        spans.whole_trace = true;
        const bool anyEvent = std::any_of(report.lanes.begin(), report.lanes.end(), [](const Lane& lane) {
            return !lane.events.start_ns.empty() || !lane.instants.time_ns.empty();
        });
        if (anyEvent || !report.counters.empty()) spans.steps.push_back({0, report.meta.begin_ns, report.meta.end_ns});
        return spans;
    }
    const std::vector<int64_t> gpuEnds = launchedGpuEnds(report, steps);
    int64_t previousEnd = steps.front().start_ns;
    for (size_t k = 0; k < steps.size(); ++k) {
        const int64_t start = std::max(previousEnd, steps[k].start_ns);
        const int64_t end = std::max({steps[k].end_ns, gpuEnds[k], start});
        spans.steps.push_back({steps[k].name_id, start, end});
        previousEnd = end;
    }
    return spans;
}

}  // namespace lanescope
