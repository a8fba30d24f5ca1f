// The path engine's walk: dependencies, the one that released an item last, the walk back, CPU gaps named.
#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

#include "analysis/critical_path/PathEngine.h"

namespace lanescope::critical_path_detail {

int32_t PathEngine::lastDoneOnStream(const StreamOps* s, int64_t corrBound, int64_t endBound,
                                     const std::vector<int64_t>& S, const std::vector<int64_t>& E) const {
    if (!s || s->corrs.empty()) return -1;
    long i = long(std::lower_bound(s->corrs.begin(), s->corrs.end(), corrBound,
                                   [](uint32_t a, int64_t c) { return int64_t{a} < c; }) -
                  s->corrs.begin()) -
             1;
    int32_t best = -1;
    while (i >= 0) {
        const int32_t op = s->by_corr[size_t(i)];
        if (E[op] <= endBound) {
            if (best < 0 || betterDone(op, best, S, E)) best = op;
            if (i == 0 || s->corrs[size_t(i - 1)] != s->corrs[size_t(i)]) break;
        }
        --i;
    }
    return best;
}

int32_t PathEngine::waitedOp(int32_t call, const std::vector<int64_t>& S, const std::vector<int64_t>& E) const {
    const SyncKind kind = items_.sync[call];
    const uint32_t corr = items_.corr[call];
    if (kind == SyncKind::None || corr == 0) return -1;
    const TraceIndex& t = traces_[items_.report[call]];
    const int64_t pid = items_.pid[call];
    if (kind == SyncKind::Memcpy) {
        int32_t best = -1;
        auto lo = std::lower_bound(t.ops_by_corr.begin(), t.ops_by_corr.end(), CorrKey{pid, corr, INT32_MIN},
                                   [](const CorrKey& a, const CorrKey& b) { return a.key() < b.key(); });
        for (; lo != t.ops_by_corr.end() && lo->pid == pid && lo->corr == corr; ++lo) {
            const int32_t op = lo->item;
            if (items_.category[op] == PathCategory::Memcpy && E[op] <= E[call] &&
                (best < 0 || betterDone(op, best, S, E)))
                best = op;
        }
        return best;
    }
    const auto fact = t.sync_facts.find({pid, corr});
    if (fact != t.sync_facts.end()) {
        if (kind == SyncKind::Stream && fact->second.stream >= 0)
            return lastDoneOnStream(streamOf(t, pid, fact->second.stream), corr, E[call], S, E);
        if (kind == SyncKind::Event && fact->second.record_corr >= 0)
            return lastDoneOnStream(streamOf(t, pid, fact->second.record_stream), fact->second.record_corr, E[call], S,
                                    E);
    }
    int32_t best = -1;
    for (auto it = t.streams.lower_bound({pid, INT64_MIN}); it != t.streams.end() && it->first.first == pid; ++it) {
        const int32_t op = lastDoneOnStream(&it->second, corr, E[call], S, E);
        if (op >= 0 && (best < 0 || betterDone(op, best, S, E))) best = op;
    }
    return best;
}

int32_t PathEngine::launchOf(int32_t op) const {
    const uint32_t corr = items_.corr[op];
    if (corr == 0) return -1;
    const TraceIndex& t = traces_[items_.report[op]];
    auto lo = std::lower_bound(t.call_by_corr.begin(), t.call_by_corr.end(), CorrKey{items_.pid[op], corr, INT32_MIN},
                               [](const CorrKey& a, const CorrKey& b) { return a.key() < b.key(); });
    return lo != t.call_by_corr.end() && lo->pid == items_.pid[op] && lo->corr == corr ? lo->item : -1;
}

int PathEngine::dependencies(int32_t item, int32_t out[3]) const {
    int n = 0;
    if (items_.side[item] == kCpuSide) {
        if (prev_call_[item] >= 0) out[n++] = prev_call_[item];
        return n;
    }
    const int32_t launch = launchOf(item);
    if (launch >= 0) out[n++] = launch;
    const int32_t prev = prev_op_[item];
    if (prev >= 0) out[n++] = prev;
    const int32_t ev = event_dep_[item];
    if (ev >= 0 && ev != prev) out[n++] = ev;
    return n;
}

int32_t PathEngine::binding(const int32_t* deps, int n, int64_t release, const std::vector<int64_t>& S,
                            const std::vector<int64_t>& E) const {
    int32_t best = -1;
    std::tuple<int64_t, int, int64_t, int64_t> bestKey;
    for (int k = 0; k < n; ++k) {
        const int32_t d = deps[k];
        const auto key =
            std::make_tuple(std::min(E[d], release), items_.side[d] == kGpuSide ? 1 : 0, -S[d], -int64_t{d});
        if (best < 0 || key > bestKey) {
            best = d;
            bestKey = key;
        }
    }
    return best;
}

int32_t PathEngine::startItem(const std::optional<std::pair<int64_t, int64_t>>& owner, int64_t A, int64_t B,
                              const std::vector<int64_t>& S, const std::vector<int64_t>& E) const {
    if (!owner) return -1;
    const auto found = traces_[0].thread_calls.find(*owner);
    if (found == traces_[0].thread_calls.end()) return -1;
    int32_t first = -1;
    std::tuple<int64_t, int64_t, int64_t> firstKey;
    for (int32_t c : found->second) {
        if (S[c] < B && E[c] > A) {
            const auto key = std::make_tuple(std::min(E[c], B), S[c], -int64_t{c});
            if (first < 0 || key > firstKey) first = c, firstKey = key;
        }
    }
    return first;
}

Segment PathEngine::itemSegment(int32_t item, int64_t s, int64_t e) const {
    return {s,
            e,
            items_.category[item],
            items_.report[item],
            items_.name_id[item],
            laneLabel(item),
            items_.lane[item],
            int32_t(items_.event[item]),
            -1,
            -1};
}

Segment PathEngine::gapSegment(int32_t item, int64_t s, int64_t e, PathCategory category, uint32_t name) const {
    Segment g{s, e, category, items_.report[item], name, {}, items_.lane[item], -1, -1, -1};
    if (category == PathCategory::Cpu) {
        g.lane_label = threadLabel(items_.report[item], items_.pid[item], items_.tid[item]);
        g.thread_pid = items_.pid[item];
        g.thread_tid = items_.tid[item];
    } else {
        g.lane_label = laneLabel(item);
    }
    return g;
}

std::vector<Segment> PathEngine::walk(int64_t A, int64_t B, const std::optional<std::pair<int64_t, int64_t>>& owner,
                                      const std::vector<int64_t>& S, const std::vector<int64_t>& E) const {
    std::vector<Segment> segs;  // built backwards
    const int32_t first = startItem(owner, A, B, S, E);
    if (first < 0) {
        if (B > A) {
            Segment g{A, B, PathCategory::Cpu, 0, 0, {}, -1, -1, -1, -1};
            if (owner) {
                g.lane_label = threadLabel(0, owner->first, owner->second);
                g.thread_pid = owner->first;
                g.thread_tid = owner->second;
            }
            segs.push_back(std::move(g));
        }
        nameCpuGaps(segs);
        return segs;
    }
    int32_t item = first;
    int64_t t = std::min(E[item], B);
    if (B > t) segs.push_back(gapSegment(item, t, B, PathCategory::Cpu, 0));
    std::vector<uint8_t> expanded;  // synchronizing calls already expanded, by item (lazily sized)
    int64_t guard = 4 * int64_t(items_.size()) + 16;
    size_t ticks = 0;
    while (t > A) {
        tick(ticks);
        if (--guard < 0) throw std::runtime_error("critical path: the walk does not terminate");
        if (items_.side[item] == kCpuSide && items_.sync[item] != SyncKind::None && t == E[item]) {
            if (expanded.empty()) expanded.assign(items_.size(), 0);
            if (!expanded[item]) {
                expanded[item] = 1;
                const int32_t w = waitedOp(item, S, E);
                if (w >= 0 && E[w] > S[item]) {
                    if (t > E[w]) {
                        Segment g = itemSegment(item, std::max(E[w], A), t);
                        g.category = PathCategory::SyncLatency;
                        g.event = -1;
                        segs.push_back(std::move(g));
                    }
                    item = w;
                    t = E[w];
                    continue;
                }
            }
        }
        if (!group_of_.empty() && group_of_[item] >= 0) {
            const std::vector<int32_t>& group = groups_[size_t(group_of_[item])];
            int32_t last = -1;
            std::tuple<int64_t, int, int> lastKey;
            for (int32_t o : group) {
                const auto key = std::make_tuple(std::min(S[o], t), o == item ? 1 : 0, -int(items_.report[o]));
                if (last < 0 || key > lastKey) last = o, lastKey = key;
            }
            const int64_t arrival = std::min(S[last], t);
            if (last != item && arrival > std::min(S[item], t)) {
                if (t > std::max(arrival, A)) segs.push_back(itemSegment(item, std::max(arrival, A), t));
                if (arrival <= A) break;
                item = last;
                t = arrival;
                continue;
            }
        }
        const int64_t s = std::min(S[item], t);
        if (t > std::max(s, A)) segs.push_back(itemSegment(item, std::max(s, A), t));
        if (s <= A) break;
        int32_t deps[3];
        const int n = dependencies(item, deps);
        const int32_t dep = binding(deps, n, s, S, E);
        const int64_t e = dep < 0 ? A : std::min(E[dep], s);
        if (s > std::max(e, A)) {
            if (items_.side[item] == kCpuSide)
                segs.push_back(gapSegment(item, std::max(e, A), s, PathCategory::Cpu, 0));
            else
                segs.push_back(gapSegment(item, std::max(e, A), s, PathCategory::LaunchLatency, items_.name_id[item]));
        }
        if (dep < 0 || e <= A) break;
        item = dep;
        t = e;
    }
    std::reverse(segs.begin(), segs.end());
    nameCpuGaps(segs);
    return segs;
}

void PathEngine::nameCpuGaps(std::vector<Segment>& segs) const {
    std::map<std::tuple<size_t, int64_t, int64_t>, std::vector<size_t>> gapsByThread;
    for (size_t i = 0; i < segs.size(); ++i)
        if (segs[i].category == PathCategory::Cpu && segs[i].thread_pid != -1)
            gapsByThread[{segs[i].report, segs[i].thread_pid, segs[i].thread_tid}].push_back(i);
    // Ranges of the threads with gaps, per report.
    std::map<std::tuple<size_t, int64_t, int64_t>, std::vector<NamingRange>> ranges;
    std::vector<uint8_t> reportNeeded(reports_.size(), 0);
    for (const auto& [key, idx] : gapsByThread) reportNeeded[std::get<0>(key)] = 1;
    for (size_t r = 0; r < reports_.size(); ++r) {
        if (!reportNeeded[r]) continue;
        forEachNamingRange(r, [&](int64_t pid, int64_t tid, const NamingRange& range) {
            if (range.end < range.start) return;
            const auto key = std::make_tuple(r, pid, tid);
            if (gapsByThread.count(key)) ranges[key].push_back(range);
        });
    }
    for (auto& [key, idxs] : gapsByThread) {
        const Report& rep = *reports_[std::get<0>(key)];
        std::vector<NamingRange>& list = ranges[key];
        std::sort(list.begin(), list.end(), [&](const NamingRange& a, const NamingRange& b) {
            if (a.start != b.start) return a.start < b.start;
            if (a.end != b.end) return a.end < b.end;
            return rep.str(a.name_id) < rep.str(b.name_id);
        });
        std::sort(idxs.begin(), idxs.end(), [&](size_t a, size_t b) { return segs[a].start < segs[b].start; });
        std::vector<NamingRange> active;
        size_t j = 0;
        for (size_t i : idxs) {
            const int64_t gs = segs[i].start, ge = segs[i].end;
            while (j < list.size() && list[j].start < ge) active.push_back(list[j++]);
            std::erase_if(active, [&](const NamingRange& r) { return r.end <= gs; });
            uint32_t best = 0;
            bool have = false;
            int64_t bestOverlap = 0, bestNegLen = 0, bestStart = 0;
            for (const NamingRange& r : active) {
                const int64_t overlap = std::min(r.end, ge) - std::max(r.start, gs);
                if (overlap <= 0) continue;
                const int64_t negLen = -(r.end - r.start);
                bool better = !have;
                if (have) {
                    if (overlap != bestOverlap)
                        better = overlap > bestOverlap;
                    else if (negLen != bestNegLen)
                        better = negLen > bestNegLen;
                    else if (r.start != bestStart)
                        better = r.start > bestStart;
                    else
                        better = rep.str(r.name_id) > rep.str(best);
                }
                if (better) {
                    have = true;
                    best = r.name_id;
                    bestOverlap = overlap;
                    bestNegLen = negLen;
                    bestStart = r.start;
                }
            }
            segs[i].name_id = have ? best : 0;
            segs[i].report = uint16_t(std::get<0>(key));
        }
    }
}

}  // namespace lanescope::critical_path_detail
