// The PyTorch "modules" view: nn.Module calls as a tree of paths, with host and device time.
#include "analysis/pytorch/ModulesView.h"

#include <algorithm>
#include <limits>
#include <string_view>
#include <vector>

#include "analysis/pytorch/LaunchedGpuTime.h"
#include "analysis/pytorch/NamePaths.h"
#include "analysis/pytorch/ThreadNesting.h"

namespace lanescope {
namespace {

// How PyTorch names the python_function event of a module call: this, then the module's name.
constexpr std::string_view kModulePrefix = "nn.Module: ";

// One module path's sums over its calls, in ns, and its first call's start (ns).
struct PathSums {
    int64_t calls = 0, hostTotal = 0, hostSelf = 0, deviceTotal = 0, deviceSelf = 0;
    int64_t firstStart = std::numeric_limits<int64_t>::max();
};

// The module calls of one Python lane added to `sums` (by path node of `paths`).
void addModuleCalls(const Report& report, const Lane& lane, int64_t apiLane, NamePaths& paths,
                    std::vector<PathSums>& sums) {
    const IntervalColumns& ev = lane.events;
    const size_t n = ev.size();
    const std::vector<uint32_t> parent = parentsByDepth(ev);
    // Per event, by event index: the innermost module call that is or encloses it (kNoEvent
    // where none does) and that call's path node (NamePaths::kRoot where none).
    std::vector<uint32_t> module(n, kNoEvent), path(n, NamePaths::kRoot);
    for (size_t i = 0; i < n; ++i) {
        if (parent[i] != kNoEvent) {
            module[i] = module[parent[i]];
            path[i] = path[parent[i]];
        }
        if (report.str(ev.name_id[i]).starts_with(kModulePrefix)) {
            module[i] = static_cast<uint32_t>(i);
            path[i] = paths.child(path[i], ev.name_id[i]);
        }
    }
    sums.resize(paths.size());
    const std::vector<int64_t> deviceTotal =
        withDescendants(parent, apiLane >= 0 ? launchedGpuSelfNs(report, lane, static_cast<uint32_t>(apiLane))
                                             : std::vector<int64_t>(n, 0));
    // Per module call, by event index: the host and device totals (ns) of its direct child modules.
    std::vector<int64_t> childHost(n, 0), childDevice(n, 0);
    // Children follow their parents: from the last event back, each is complete when reached.
    for (size_t i = n; i-- > 0;) {
        if (module[i] != i) continue;
        const int64_t duration = ev.durationNs(i);
        PathSums& s = sums[path[i]];
        ++s.calls;
        s.hostTotal += duration;
        s.hostSelf += duration - childHost[i];
        s.deviceTotal += deviceTotal[i];
        s.deviceSelf += deviceTotal[i] - childDevice[i];
        s.firstStart = std::min(s.firstStart, ev.start_ns[i]);
        const uint32_t enclosing = parent[i] != kNoEvent ? module[parent[i]] : kNoEvent;
        if (enclosing != kNoEvent) {
            childHost[enclosing] += duration;
            childDevice[enclosing] += deviceTotal[i];
        }
    }
}

// A path node's text: its module names from the root, joined by '/'.
std::string pathText(const Report& report, const NamePaths& paths, uint32_t node) {
    std::vector<std::string_view> names;
    for (; node != NamePaths::kRoot; node = paths.parentOf(node))
        names.push_back(report.str(paths.nameOf(node)).substr(kModulePrefix.size()));
    std::string text;
    for (auto name = names.rbegin(); name != names.rend(); ++name) {
        if (!text.empty()) text += '/';
        text += *name;
    }
    return text;
}

}  // namespace

ModulesView pytorchModules(const Report& report) {
    ModulesView view;
    view.table.name = "pytorch_modules";
    view.table.header = {"Module",          "Depth", "Calls", "Host Total (ns)", "Host Self (ns)", "Device Total (ns)",
                         "Device Self (ns)"};
    NamePaths paths;
    std::vector<PathSums> sums;  // by path node
    const uint32_t laneName = report.strings.find(kPytorchPythonLaneName);
    if (laneName != UINT32_MAX) {
        const std::vector<int64_t> apiLaneOf = laneByThread(report, LaneKind::CudaApi);
        for (const Lane& lane : report.lanes)
            if (lane.kind == LaneKind::Nvtx && lane.name_id == laneName)
                addModuleCalls(report, lane, lane.thread >= 0 ? apiLaneOf[static_cast<size_t>(lane.thread)] : -1, paths,
                               sums);
    }
    if (paths.size() <= 1) {
        view.missing = "the trace records no nn.Module events: record with with_modules=True";
        return view;
    }

    // Each node's children, by their first call's start; then a depth-first walk from the root.
    std::vector<std::vector<uint32_t>> children(paths.size());
    for (uint32_t node = 1; node < paths.size(); ++node) children[paths.parentOf(node)].push_back(node);
    std::vector<uint32_t> pending;  // nodes to visit, the next at the back
    for (auto& siblings : children) {
        std::stable_sort(siblings.begin(), siblings.end(),
                         [&](uint32_t a, uint32_t b) { return sums[a].firstStart < sums[b].firstStart; });
    }
    pending.assign(children[NamePaths::kRoot].rbegin(), children[NamePaths::kRoot].rend());
    while (!pending.empty()) {
        const uint32_t node = pending.back();
        pending.pop_back();
        const PathSums& s = sums[node];
        view.table.rows.push_back({pathText(report, paths, node), static_cast<int64_t>(paths.depthOf(node)) - 1,
                                   s.calls, s.hostTotal, s.hostSelf, s.deviceTotal, s.deviceSelf});
        pending.insert(pending.end(), children[node].rbegin(), children[node].rend());
    }
    return view;
}

}  // namespace lanescope
