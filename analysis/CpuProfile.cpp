#include "analysis/CpuProfile.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace lanescope {
namespace {

bool threadSelected(const Report& r, int32_t thread, const SampleSelection& s) {
    if (thread < 0 || static_cast<size_t>(thread) >= r.threads.size()) return s.tids.empty() && s.pids.empty();
    const Thread& t = r.threads[static_cast<size_t>(thread)];
    if (!s.tids.empty() && std::find(s.tids.begin(), s.tids.end(), t.tid) == s.tids.end()) return false;
    if (s.pids.empty()) return true;
    const int64_t pid = t.process >= 0 ? r.processes[static_cast<size_t>(t.process)].pid : -1;
    return std::find(s.pids.begin(), s.pids.end(), pid) != s.pids.end();
}

// The instants of a lane at times in [begin, end): instants are sorted by time.
std::pair<size_t, size_t> instantsIn(const Lane& lane, TimeRange range) {
    const auto& t = lane.instants.time_ns;
    const auto first = std::lower_bound(t.begin(), t.end(), range.begin_ns);
    const auto last = std::lower_bound(first, t.end(), range.end_ns);
    return {static_cast<size_t>(first - t.begin()), static_cast<size_t>(last - t.begin())};
}

std::string_view functionOf(const Report& r, uint32_t frame) { return r.str(r.stacks.frame_function[frame]); }
std::string_view moduleOf(const Report& r, uint32_t frame) { return r.str(r.stacks.frame_module[frame]); }
// Frames by function name, then module: the same order whatever order the importer met them in.
bool byName(const Report& r, uint32_t a, uint32_t b) {
    const int byFunction = functionOf(r, a).compare(functionOf(r, b));
    return byFunction != 0 ? byFunction < 0 : moduleOf(r, a) < moduleOf(r, b);
}

// Percent of `part` in `whole`, one decimal, rounded half away from zero.
StatsTable::Cell percent(uint64_t part, uint64_t whole) {
    const double p = whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
    return StatsTable::Real{p, 1};
}

// Depth-first rows of a tree given as child lists, children by total descending then name.
void emitTree(const Report& r, std::vector<std::vector<uint32_t>>& children, const std::vector<CallTreeRow>& nodes,
              std::vector<uint32_t> roots, std::vector<CallTreeRow>& out) {
    auto order = [&](std::vector<uint32_t>& list) {
        std::sort(list.begin(), list.end(), [&](uint32_t a, uint32_t b) {
            if (nodes[a].total != nodes[b].total) return nodes[a].total > nodes[b].total;
            return byName(r, nodes[a].frame, nodes[b].frame);
        });
    };
    order(roots);
    std::vector<uint32_t> stack(roots.rbegin(), roots.rend());  // explicit: stacks can be thousands deep
    while (!stack.empty()) {
        const uint32_t n = stack.back();
        stack.pop_back();
        out.push_back(nodes[n]);
        order(children[n]);
        for (auto it = children[n].rbegin(); it != children[n].rend(); ++it) stack.push_back(*it);
    }
}

}  // namespace

StackCounts countSamples(const Report& report, const SampleSelection& selection) {
    StackCounts c;
    c.self.assign(report.stacks.nodeCount(), 0);
    for (const Lane& lane : report.lanes) {
        if (lane.kind != LaneKind::CpuSamples || !threadSelected(report, lane.thread, selection)) continue;
        const auto [first, last] = instantsIn(lane, selection.range);
        c.samples += last - first;
        for (size_t i = first; i < last; ++i) {
            const uint32_t stack = lane.instants.payload[i];
            if (stack < c.self.size())
                ++c.self[stack];
            else
                ++c.without_stack;
        }
    }
    return c;
}

std::vector<FlatProfileRow> flatProfile(const Report& report, const StackCounts& counts) {
    const CallStacks& s = report.stacks;
    std::vector<uint64_t> self(s.frameCount(), 0), total(s.frameCount(), 0);
    std::vector<uint32_t> seenAt(s.frameCount(), UINT32_MAX);  // the leaf node that last counted a frame
    for (uint32_t leaf = 0; leaf < counts.self.size(); ++leaf) {
        const uint32_t n = counts.self[leaf];
        if (!n) continue;
        self[s.node_frame[leaf]] += n;
        for (uint32_t node = leaf; node != kNoStack; node = s.node_parent[node]) {
            const uint32_t f = s.node_frame[node];
            if (seenAt[f] == leaf) continue;  // recursion: once per sample
            seenAt[f] = leaf;
            total[f] += n;
        }
    }
    std::vector<FlatProfileRow> rows;
    for (uint32_t f = 0; f < s.frameCount(); ++f)
        if (total[f]) rows.push_back({f, self[f], total[f]});
    std::sort(rows.begin(), rows.end(), [&](const FlatProfileRow& a, const FlatProfileRow& b) {
        if (a.self != b.self) return a.self > b.self;
        if (a.total != b.total) return a.total > b.total;
        return byName(report, a.frame, b.frame);
    });
    return rows;
}

std::vector<CallTreeRow> topDownTree(const Report& report, const StackCounts& counts) {
    // The stack tree is the top-down tree: totals summed from each node into its parent,
    // children before parents (a parent's id is smaller).
    const CallStacks& s = report.stacks;
    const auto nodeCount = static_cast<uint32_t>(counts.self.size());
    std::vector<CallTreeRow> nodes(nodeCount);
    for (uint32_t n = nodeCount; n-- > 0;) {
        nodes[n].frame = s.node_frame[n];
        nodes[n].self = counts.self[n];
        nodes[n].total += counts.self[n];
        if (s.node_parent[n] != kNoStack) nodes[s.node_parent[n]].total += nodes[n].total;
    }
    std::vector<std::vector<uint32_t>> children(nodeCount);
    std::vector<uint32_t> roots;
    for (uint32_t n = 0; n < nodeCount; ++n) {
        if (!nodes[n].total) continue;
        const uint32_t p = s.node_parent[n];
        nodes[n].depth = p == kNoStack ? 0 : nodes[p].depth + 1;
        (p == kNoStack ? roots : children[p]).push_back(n);
    }
    std::vector<CallTreeRow> out;
    emitTree(report, children, nodes, std::move(roots), out);
    return out;
}

std::vector<CallTreeRow> bottomUpTree(const Report& report, const StackCounts& counts) {
    // Each counted stack walked from its innermost frame outwards into a tree keyed by
    // (parent, frame).
    const CallStacks& s = report.stacks;
    std::vector<CallTreeRow> nodes;
    std::vector<std::vector<uint32_t>> children;
    std::vector<uint32_t> roots;
    std::unordered_map<uint64_t, uint32_t> index;  // (parent + 1, frame) -> node
    for (uint32_t leaf = 0; leaf < counts.self.size(); ++leaf) {
        const uint32_t n = counts.self[leaf];
        if (!n) continue;
        uint32_t parent = kNoStack;
        for (uint32_t node = leaf; node != kNoStack; node = s.node_parent[node]) {
            const uint32_t frame = s.node_frame[node];
            auto [it, inserted] =
                index.try_emplace((uint64_t{parent + 1} << 32) | frame, static_cast<uint32_t>(nodes.size()));
            if (inserted) {
                nodes.push_back({parent == kNoStack ? 0 : nodes[parent].depth + 1, frame, 0, 0});
                children.emplace_back();
                (parent == kNoStack ? roots : children[parent]).push_back(it->second);
            }
            nodes[it->second].total += n;
            if (parent == kNoStack) nodes[it->second].self += n;
            parent = it->second;
        }
    }
    std::vector<CallTreeRow> out;
    emitTree(report, children, nodes, std::move(roots), out);
    return out;
}

std::vector<LaneSamples> samplesWithFrame(const Report& report, const SampleSelection& selection, uint32_t frame) {
    // holds[node]: the stack ending at node has `frame`; a parent's id is smaller than its child's.
    const CallStacks& s = report.stacks;
    std::vector<uint8_t> holds(s.nodeCount(), 0);
    for (size_t n = 0; n < s.nodeCount(); ++n)
        holds[n] = s.node_frame[n] == frame || (s.node_parent[n] != kNoStack && holds[s.node_parent[n]]);
    std::vector<LaneSamples> out;
    for (uint32_t l = 0; l < report.lanes.size(); ++l) {
        const Lane& lane = report.lanes[l];
        if (lane.kind != LaneKind::CpuSamples || !threadSelected(report, lane.thread, selection)) continue;
        const auto [first, last] = instantsIn(lane, selection.range);
        LaneSamples samples{l, {}};
        for (size_t i = first; i < last; ++i) {
            const uint32_t stack = lane.instants.payload[i];
            if (stack < holds.size() && holds[stack]) samples.instants.push_back(static_cast<uint32_t>(i));
        }
        if (!samples.instants.empty()) out.push_back(std::move(samples));
    }
    return out;
}

std::vector<ThreadActivityRow> threadActivity(const Report& report, const SampleSelection& selection) {
    std::unordered_map<int32_t, ThreadActivityRow> byThread;
    const TimeRange range = selection.range;
    for (const Lane& lane : report.lanes) {
        if (lane.thread < 0 || !threadSelected(report, lane.thread, selection)) continue;
        if (lane.kind == LaneKind::CpuSamples) {
            const auto [first, last] = instantsIn(lane, range);
            ThreadActivityRow& row = byThread[lane.thread];
            row.thread = lane.thread;
            row.samples += last - first;
        } else if (lane.kind == LaneKind::ThreadState) {
            ThreadActivityRow& row = byThread[lane.thread];
            row.thread = lane.thread;
            for (uint32_t i : lane.overlapping(0, range.begin_ns, range.end_ns)) {
                if (threadStateOf(lane.events.payload[i]) != ThreadRunState::Running) continue;
                const int64_t start = lane.events.start_ns[i], end = lane.events.end_ns[i];
                row.running_ns += std::min(end, range.end_ns) - std::max(start, range.begin_ns);
                row.switches += start >= range.begin_ns;
            }
        }
    }
    std::vector<ThreadActivityRow> rows;
    for (const auto& [thread, row] : byThread) rows.push_back(row);
    std::sort(rows.begin(), rows.end(), [](const ThreadActivityRow& a, const ThreadActivityRow& b) {
        if (a.running_ns != b.running_ns) return a.running_ns > b.running_ns;
        if (a.samples != b.samples) return a.samples > b.samples;
        return a.thread < b.thread;
    });
    return rows;
}

StatsTable flatProfileTable(const Report& report, const StackCounts& counts) {
    StatsTable t{"flat", {"Self", "Total", "Self (%)", "Total (%)", "Function", "Module"}, {}};
    for (const FlatProfileRow& row : flatProfile(report, counts))
        t.rows.push_back({static_cast<int64_t>(row.self), static_cast<int64_t>(row.total),
                          percent(row.self, counts.samples), percent(row.total, counts.samples),
                          std::string(functionOf(report, row.frame)),
                          std::string(report.str(report.stacks.frame_module[row.frame]))});
    return t;
}

StatsTable callTreeTable(const Report& report, const StackCounts& counts, const std::vector<CallTreeRow>& rows,
                         const char* name) {
    StatsTable t{name, {"Depth", "Self", "Total", "Self (%)", "Total (%)", "Function", "Module"}, {}};
    for (const CallTreeRow& row : rows)
        t.rows.push_back({static_cast<int64_t>(row.depth), static_cast<int64_t>(row.self),
                          static_cast<int64_t>(row.total), percent(row.self, counts.samples),
                          percent(row.total, counts.samples), std::string(functionOf(report, row.frame)),
                          std::string(report.str(report.stacks.frame_module[row.frame]))});
    return t;
}

StatsTable threadActivityTable(const Report& report, const std::vector<ThreadActivityRow>& rows) {
    StatsTable t{"threads", {"PID", "TID", "Thread", "Samples", "Running (ns)", "Switches"}, {}};
    for (const ThreadActivityRow& row : rows) {
        const Thread& th = report.threads[static_cast<size_t>(row.thread)];
        const int64_t pid = th.process >= 0 ? report.processes[static_cast<size_t>(th.process)].pid : -1;
        t.rows.push_back({pid, th.tid, std::string(report.str(th.name_id)), static_cast<int64_t>(row.samples),
                          row.running_ns, static_cast<int64_t>(row.switches)});
    }
    return t;
}

}  // namespace lanescope
