// PyTorch's operators grouped by name and Python call stack.
#include "analysis/pytorch/OperatorStacks.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/pytorch/NamePaths.h"
#include "analysis/pytorch/Operators.h"
#include "analysis/pytorch/ThreadNesting.h"

namespace lanescope {
namespace {

// Per event of a Python lane, by event index: the node in `paths` of its frames from the
// outermost down to itself.
std::vector<uint32_t> framePaths(const Lane& python, NamePaths& paths) {
    const std::vector<uint32_t> parent = parentsByDepth(python.events);
    std::vector<uint32_t> node(parent.size());
    for (size_t i = 0; i < parent.size(); ++i)
        node[i] = paths.child(parent[i] != kNoEvent ? node[parent[i]] : NamePaths::kRoot, python.events.name_id[i]);
    return node;
}

// A stack's text: its frames from the innermost out, joined by kCallStackSeparator.
std::string stackText(const Report& report, const NamePaths& paths, uint32_t node) {
    std::string text;
    for (; node != NamePaths::kRoot; node = paths.parentOf(node)) {
        if (!text.empty()) text += kCallStackSeparator;
        text += report.str(paths.nameOf(node));
    }
    return text;
}

}  // namespace

OperatorStacksView pytorchOperatorStacks(const Report& report) {
    OperatorStacksView view;
    view.table.name = "pytorch_operator_stacks";
    view.table.header = {"Name",          "Call Stack",        "Calls",           "CPU Total (ns)",
                         "CPU Self (ns)", "Device Total (ns)", "Device Self (ns)"};
    const std::vector<int64_t> pythonLaneOf = laneByThread(report, LaneKind::Nvtx, kPytorchPythonLaneName);
    const bool anyFrames = std::any_of(pythonLaneOf.begin(), pythonLaneOf.end(), [&](int64_t l) {
        return l >= 0 && report.lanes[static_cast<size_t>(l)].events.size() > 0;
    });
    if (!anyFrames) {
        view.missing = "the trace records no Python call stacks (python_function events): record with with_stack=True";
        return view;
    }
    NamePaths paths;
    std::map<std::pair<uint32_t, uint32_t>, OperatorSums> byNameAndStack;  // by (name id, stack node)
    forEachOperatorLane(report, [&](const OperatorLaneTimes& times) {
        const Lane& ops = report.lanes[times.lane];
        const IntervalColumns& ev = ops.events;
        const int64_t pythonLane = ops.thread >= 0 ? pythonLaneOf[static_cast<size_t>(ops.thread)] : -1;
        std::vector<uint32_t> stackOf(ev.size(), NamePaths::kRoot);  // by operator event index
        if (pythonLane >= 0) {
            const Lane& python = report.lanes[static_cast<size_t>(pythonLane)];
            const std::vector<uint32_t> frames = framePaths(python, paths);
            forEachInnermostContaining(python.events, ev,
                                       [&](uint32_t op, uint32_t frame) { stackOf[op] = frames[frame]; });
        }
        for (size_t i = 0; i < ev.size(); ++i) {
            byNameAndStack[{ev.name_id[i], stackOf[i]}].add(ev, i, times);
        }
    });
    if (byNameAndStack.empty())
        view.missing = "the trace records no PyTorch operators (no cpu_op or Operator events): the table is empty";

    // (name, stack text, sums), sorted below.
    std::vector<std::tuple<std::string_view, std::string, const OperatorSums*>> rows;
    rows.reserve(byNameAndStack.size());
    for (const auto& [key, sums] : byNameAndStack)
        rows.emplace_back(report.str(key.first), stackText(report, paths, key.second), &sums);
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        const int64_t ta = std::get<2>(a)->cpuTotal, tb = std::get<2>(b)->cpuTotal;
        if (ta != tb) return ta > tb;
        return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
    });
    for (const auto& [name, stack, s] : rows)
        view.table.rows.push_back(
            {std::string(name), stack, s->calls, s->cpuTotal, s->cpuSelf, s->deviceTotal, s->deviceSelf});
    return view;
}

}  // namespace lanescope
