#include "analysis/CpuProfile.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
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
    // The stack tree is the top-down tree: totals summed from each node into its parent
    // (children before parents: a parent's id is smaller), then the nodes with samples walked
    // depth-first through flat child lists (children of node n: kids[first[n], first[n + 1])).
    const CallStacks& s = report.stacks;
    const auto nodeCount = static_cast<uint32_t>(counts.self.size());
    std::vector<uint64_t> total(counts.self.begin(), counts.self.end());
    std::vector<uint32_t> first(nodeCount + 1, 0), roots;
    for (uint32_t n = nodeCount; n-- > 0;) {
        if (!total[n]) continue;
        const uint32_t p = s.node_parent[n];
        if (p == kNoStack) {
            roots.push_back(n);
        } else {
            total[p] += total[n];
            ++first[p + 1];
        }
    }
    for (uint32_t n = 0; n < nodeCount; ++n) first[n + 1] += first[n];
    std::vector<uint32_t> kids(first[nodeCount]), filled(first.begin(), first.end() - 1);
    for (uint32_t n = 0; n < nodeCount; ++n)
        if (total[n] && s.node_parent[n] != kNoStack) kids[filled[s.node_parent[n]]++] = n;
    auto shownFirst = [&](uint32_t a, uint32_t b) {  // most samples first, then by name
        if (total[a] != total[b]) return total[a] > total[b];
        return byName(report, s.node_frame[a], s.node_frame[b]);
    };
    std::sort(roots.begin(), roots.end(), shownFirst);
    std::vector<CallTreeRow> out;
    std::vector<std::pair<uint32_t, uint32_t>> stack;  // (node, depth); explicit: stacks run deep
    for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.emplace_back(*it, 0);
    while (!stack.empty()) {
        const auto [n, depth] = stack.back();
        stack.pop_back();
        out.push_back({depth, s.node_frame[n], counts.self[n], total[n]});
        const auto b = kids.begin() + first[n], e = kids.begin() + first[n + 1];
        std::sort(b, e, shownFirst);
        for (auto it = e; it != b;) stack.emplace_back(*--it, depth + 1);
    }
    return out;
}

std::vector<CallTreeRow> bottomUpTree(const Report& report, const StackCounts& counts) {
    // Built level by level without hashing: a bottom-up node stands for a group of stack-tree
    // nodes sharing one frame (with their sample counts); its children group those nodes'
    // parents by frame. Groups are expanded depth-first in output order, their cursors kept in
    // one arena used as a stack: a group's children are appended as one segment, and once a
    // group is taken, everything after its own segment belongs to finished subtrees.
    const CallStacks& s = report.stacks;
    struct Cursor {
        uint32_t node;
        uint32_t count;
    };
    struct Group {
        uint32_t depth, frame;
        uint64_t total;
        size_t begin, end, segmentEnd;  // its cursors in the arena, and the end of their segment
    };
    std::vector<Cursor> arena;
    std::vector<Group> pending, children;
    std::vector<CallTreeRow> out;
    // Sorts arena[from, arena.size()) by frame and pushes one group per frame onto `pending`,
    // so that the one to show first (most samples, then by name) is taken first.
    auto pushGroups = [&](size_t from, uint32_t depth) {
        std::sort(arena.begin() + static_cast<std::ptrdiff_t>(from), arena.end(),
                  [&](const Cursor& a, const Cursor& b) { return s.node_frame[a.node] < s.node_frame[b.node]; });
        children.clear();
        for (size_t i = from; i < arena.size();) {
            const uint32_t frame = s.node_frame[arena[i].node];
            Group g{depth, frame, 0, i, i, arena.size()};
            for (; g.end < arena.size() && s.node_frame[arena[g.end].node] == frame; ++g.end)
                g.total += arena[g.end].count;
            i = g.end;
            children.push_back(g);
        }
        std::sort(children.begin(), children.end(), [&](const Group& a, const Group& b) {
            if (a.total != b.total) return a.total < b.total;  // reversed: the stack pops the last
            return byName(report, b.frame, a.frame);
        });
        pending.insert(pending.end(), children.begin(), children.end());
    };
    for (uint32_t leaf = 0; leaf < counts.self.size(); ++leaf)
        if (counts.self[leaf]) arena.push_back({leaf, counts.self[leaf]});
    pushGroups(0, 0);
    while (!pending.empty()) {
        const Group g = pending.back();
        pending.pop_back();
        arena.resize(g.segmentEnd);
        out.push_back({g.depth, g.frame, g.depth == 0 ? g.total : 0, g.total});
        const size_t from = arena.size();
        for (size_t i = g.begin; i < g.end; ++i)
            if (s.node_parent[arena[i].node] != kNoStack)
                arena.push_back({s.node_parent[arena[i].node], arena[i].count});
        if (arena.size() > from) pushGroups(from, g.depth + 1);
    }
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
                const int64_t start = lane.events.start_ns[i], end = lane.events.endNs(i);
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
