// The critical path of a time range (docs/analyses.md, "Critical path").
#include "analysis/critical_path/CriticalPath.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <regex>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "analysis/Cancellation.h"
#include "analysis/ranks/Collectives.h"
#include "analysis/ranks/RankAlignment.h"
#include "analysis/ranks/RankInput.h"
#include "analysis/ranks/Steps.h"
#include "model/Correlation.h"

namespace lanescope {
namespace critical_path_detail {

constexpr uint8_t kCpuSide = 0, kGpuSide = 1;
enum class SyncKind : uint8_t { None, Device, Stream, Event, Memcpy };

// Every item (CPU call or GPU operation) of all reports, one row each, as columns. Rows: report
// after report, in each its calls (lane order, then event order) and then its GPU operations;
// the row number is the item's input order, which breaks the last ties. Times in ns on the
// shared timeline (each report's own times plus its alignment offset).
struct Items {
    std::vector<int64_t> start, end;
    std::vector<uint8_t> side;  // kCpuSide, kGpuSide
    std::vector<PathCategory> category;
    std::vector<uint32_t> name_id;  // into the report's strings
    std::vector<uint16_t> report;
    std::vector<int64_t> pid, tid;        // tid: CPU calls only
    std::vector<int64_t> device, stream;  // GPU operations only
    std::vector<uint32_t> corr;           // CUDA correlation id; for a call 0 = none
    std::vector<SyncKind> sync;           // CPU calls: what the call synchronizes with
    std::vector<int32_t> lane;            // index into the report's lanes
    std::vector<uint32_t> event;          // index into the lane's events

    size_t size() const { return start.size(); }
    void add(int64_t s, int64_t e, uint8_t sd, PathCategory c, uint32_t name, uint16_t rep, int64_t p, int64_t t,
             int64_t dev, int64_t str, uint32_t co, SyncKind sk, int32_t ln, uint32_t ev) {
        start.push_back(s);
        end.push_back(e);
        side.push_back(sd);
        category.push_back(c);
        name_id.push_back(name);
        report.push_back(rep);
        pid.push_back(p);
        tid.push_back(t);
        device.push_back(dev);
        stream.push_back(str);
        corr.push_back(co);
        sync.push_back(sk);
        lane.push_back(ln);
        event.push_back(ev);
    }
};

// (pid, correlation id) -> item, sorted by key then by item: the calls or operations of one
// correlation id.
struct CorrKey {
    int64_t pid;
    uint32_t corr;
    int32_t item;
    auto key() const { return std::tie(pid, corr, item); }
};

// One stream of one process: its operations by start (execution order) and those with a
// correlation id by (correlation id, start, row) (enqueue order) with their ids alongside.
struct StreamOps {
    std::vector<int32_t> by_corr;
    std::vector<uint32_t> corrs;
};

// A naming range of a thread (NVTX range, PyTorch operator or annotation), ns shared timeline.
struct NamingRange {
    int64_t start, end;
    uint32_t name_id;
};

// What a synchronization row says about a call: the stream it synchronized with, or the event
// record (stream and correlation id) it waited for. -1 where not given.
struct SyncFact {
    int64_t stream = -1;
    int64_t record_stream = -1;
    int64_t record_corr = -1;
};

// The indexes of one report's items.
struct TraceIndex {
    const Report* report = nullptr;
    int64_t offset = 0;
    bool kineto = false;
    std::string prefix;  // "rank N " with several reports
    // (pid, tid) -> the thread's outermost calls, by (start, end descending, row).
    std::map<std::pair<int64_t, int64_t>, std::vector<int32_t>> thread_calls;
    std::vector<CorrKey> call_by_corr;  // one per (pid, corr): the outermost call standing for it
    std::vector<CorrKey> ops_by_corr;   // every operation with a correlation id
    std::map<std::pair<int64_t, int64_t>, StreamOps> streams;     // (pid, stream)
    std::map<std::pair<int64_t, uint32_t>, SyncFact> sync_facts;  // (pid, call's correlation id)
};

struct Segment {
    int64_t start, end;
    PathCategory category;
    uint16_t report;
    uint32_t name_id;
    std::string lane_label;
    int32_t lane, event;
    int64_t thread_pid, thread_tid;  // a CPU gap's thread; pid -1 when none
};

constexpr std::string_view kCategoryNames[kPathCategoryCount] = {
    "Kernel",     "Memcpy", "Memset", "CUDA graph",     "Communication", "CUDA API",
    "OS runtime", "MPI",    "CPU",    "Launch latency", "Sync latency",  "Wait for rank"};

std::string_view withoutVersionSuffix(std::string_view name) {
    // "_v" then digits at the end
    size_t i = name.size();
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') --i;
    if (i < name.size() && i >= 2 && name[i - 1] == 'v' && name[i - 2] == '_') return name.substr(0, i - 2);
    return name;
}

SyncKind syncKindOfName(std::string_view name) {
    const std::string_view n = withoutVersionSuffix(name);
    if (n == "cudaDeviceSynchronize" || n == "cudaThreadSynchronize" || n == "cuCtxSynchronize")
        return SyncKind::Device;
    if (n == "cudaStreamSynchronize" || n == "cuStreamSynchronize") return SyncKind::Stream;
    if (n == "cudaEventSynchronize" || n == "cuEventSynchronize") return SyncKind::Event;
    if ((n.starts_with("cudaMemcpy") || n.starts_with("cuMemcpy")) && n.find("Async") == std::string_view::npos)
        return SyncKind::Memcpy;
    return SyncKind::None;
}

bool isStreamWait(std::string_view name) {
    const std::string_view n = withoutVersionSuffix(name);
    return n == "cudaStreamWaitEvent" || n == "cuStreamWaitEvent";
}

bool containsNcclCaseless(std::string_view s) {
    for (size_t i = 0; i + 4 <= s.size(); ++i) {
        auto lower = [](char c) { return char(c >= 'A' && c <= 'Z' ? c + 32 : c); };
        if (lower(s[i]) == 'n' && lower(s[i + 1]) == 'c' && lower(s[i + 2]) == 'c' && lower(s[i + 3]) == 'l')
            return true;
    }
    return false;
}

bool validSyncId(uint32_t v) { return v != 0 && v != 0xFFFFFFFFu; }

void tick(size_t& counter) {
    if ((++counter & 0xFFFF) == 0) cancellationPoint();
}

// The whole computation over the items; times are passed in (the original ones, or the
// what-if's replayed ones).
class PathEngine {
public:
    PathEngine(const std::vector<const Report*>& reports, const std::vector<int64_t>& offsets, bool several)
        : reports_(reports) {
        traces_.resize(reports.size());
        for (size_t r = 0; r < reports.size(); ++r) {
            TraceIndex& t = traces_[r];
            t.report = reports[r];
            t.offset = offsets[r];
            t.kineto = reports[r]->meta.format == "kineto-json";
            if (several) t.prefix = "rank " + std::to_string(r) + " ";
        }
        for (size_t r = 0; r < reports.size(); ++r) readCalls(r);
        prev_call_.assign(items_.size(), -1);
        kept_.assign(items_.size(), 0);
        for (size_t r = 0; r < reports.size(); ++r) indexCalls(r);
        for (size_t r = 0; r < reports.size(); ++r) readOps(r);
        prev_call_.resize(items_.size(), -1);
        kept_.resize(items_.size(), 0);
        prev_op_.assign(items_.size(), -1);
        event_dep_.assign(items_.size(), -1);
        for (size_t r = 0; r < reports.size(); ++r) indexOps(r);
        for (size_t r = 0; r < reports.size(); ++r) readSyncs(r);
    }

    Items items_;
    std::vector<TraceIndex> traces_;
    std::vector<int32_t> prev_call_, prev_op_, event_dep_;
    std::vector<uint8_t> kept_;
    // A matched collective's group: group_of_[item] is an index into groups_, -1 when none.
    std::vector<int32_t> group_of_;
    std::vector<std::vector<int32_t>> groups_;

    int32_t itemOfEvent(size_t report, uint32_t lane, uint32_t event) const {
        const auto found = op_of_event_[report].find((uint64_t{lane} << 32) | event);
        return found == op_of_event_[report].end() ? -1 : found->second;
    }

    // ---- sync queries ---------------------------------------------------------------------

    bool betterDone(int32_t a, int32_t b, const std::vector<int64_t>& S, const std::vector<int64_t>& E) const {
        return std::make_tuple(E[a], -S[a], -int64_t{a}) > std::make_tuple(E[b], -S[b], -int64_t{b});
    }

    const StreamOps* streamOf(const TraceIndex& t, int64_t pid, int64_t stream) const {
        const auto found = t.streams.find({pid, stream});
        return found == t.streams.end() ? nullptr : &found->second;
    }

    int32_t lastOpBefore(const StreamOps* s, int64_t corr) const {
        if (!s || s->corrs.empty()) return -1;
        const size_t i = size_t(std::lower_bound(s->corrs.begin(), s->corrs.end(), corr,
                                                 [](uint32_t a, int64_t c) { return int64_t{a} < c; }) -
                                s->corrs.begin());
        return i > 0 ? s->by_corr[i - 1] : -1;
    }
    int32_t firstOpAfter(const StreamOps* s, int64_t corr) const {
        if (!s || s->corrs.empty()) return -1;
        const size_t i = size_t(std::upper_bound(s->corrs.begin(), s->corrs.end(), corr,
                                                 [](int64_t c, uint32_t a) { return c < int64_t{a}; }) -
                                s->corrs.begin());
        return i < s->corrs.size() ? s->by_corr[i] : -1;
    }
    // Of the operations enqueued on the stream before corrBound, the one that ended last at or
    // before endBound.
    int32_t lastDoneOnStream(const StreamOps* s, int64_t corrBound, int64_t endBound, const std::vector<int64_t>& S,
                             const std::vector<int64_t>& E) const {
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

    // The last GPU operation a synchronizing call waited for that ended at or before the call
    // did, or -1.
    int32_t waitedOp(int32_t call, const std::vector<int64_t>& S, const std::vector<int64_t>& E) const {
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
                return lastDoneOnStream(streamOf(t, pid, fact->second.record_stream), fact->second.record_corr, E[call],
                                        S, E);
        }
        int32_t best = -1;
        for (auto it = t.streams.lower_bound({pid, INT64_MIN}); it != t.streams.end() && it->first.first == pid; ++it) {
            const int32_t op = lastDoneOnStream(&it->second, corr, E[call], S, E);
            if (op >= 0 && (best < 0 || betterDone(op, best, S, E))) best = op;
        }
        return best;
    }

    // ---- dependencies -------------------------------------------------------------------------

    int32_t launchOf(int32_t op) const {
        const uint32_t corr = items_.corr[op];
        if (corr == 0) return -1;
        const TraceIndex& t = traces_[items_.report[op]];
        auto lo =
            std::lower_bound(t.call_by_corr.begin(), t.call_by_corr.end(), CorrKey{items_.pid[op], corr, INT32_MIN},
                             [](const CorrKey& a, const CorrKey& b) { return a.key() < b.key(); });
        return lo != t.call_by_corr.end() && lo->pid == items_.pid[op] && lo->corr == corr ? lo->item : -1;
    }

    // At most 3: [previous call] or [launch, previous op, event producer].
    int dependencies(int32_t item, int32_t out[3]) const {
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

    int32_t binding(const int32_t* deps, int n, int64_t release, const std::vector<int64_t>& S,
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

    // ---- the walk -----------------------------------------------------------------------------

    // The owning thread of the first report: (pid, tid), or nullopt.
    std::optional<std::pair<int64_t, int64_t>> mainThread() const {
        const TraceIndex& t = traces_[0];
        std::map<std::pair<int64_t, int64_t>, int64_t> counts;
        for (const auto& [key, calls] : t.thread_calls)
            for (int32_t c : calls)
                if (items_.category[c] == PathCategory::CudaApi) ++counts[key];
        if (counts.empty())
            for (const auto& [key, calls] : t.thread_calls)
                if (!calls.empty()) counts[key] += int64_t(calls.size());
        if (counts.empty()) {
            forEachNamingRange(0, [&](int64_t pid, int64_t tid, const NamingRange&) { ++counts[{pid, tid}]; });
        }
        if (counts.empty()) return std::nullopt;
        std::map<int64_t, int64_t> perPid;
        for (const auto& [key, n] : counts) perPid[key.first] += n;
        int64_t pid = 0, most = -1;
        for (const auto& [p, n] : perPid)
            if (n > most) most = n, pid = p;
        if (counts.count({pid, pid})) return std::pair{pid, pid};
        int64_t tid = 0;
        most = -1;
        for (const auto& [key, n] : counts)
            if (key.first == pid && n > most) most = n, tid = key.second;
        return std::pair{pid, tid};
    }

    // The owning thread's call that ended last within [A, B], or -1.
    int32_t startItem(const std::optional<std::pair<int64_t, int64_t>>& owner, int64_t A, int64_t B,
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

    std::string laneLabel(int32_t item) const {
        const TraceIndex& t = traces_[items_.report[item]];
        if (items_.side[item] == kGpuSide)
            return t.prefix + "pid " + std::to_string(items_.pid[item]) + " GPU " +
                   std::to_string(items_.device[item]) + " stream " + std::to_string(items_.stream[item]);
        return t.prefix + "pid " + std::to_string(items_.pid[item]) + " tid " + std::to_string(items_.tid[item]) + " " +
               std::string(kCategoryNames[size_t(items_.category[item])]);
    }
    std::string threadLabel(size_t report, int64_t pid, int64_t tid) const {
        return traces_[report].prefix + "pid " + std::to_string(pid) + " tid " + std::to_string(tid);
    }

    Segment itemSegment(int32_t item, int64_t s, int64_t e) const {
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
    Segment gapSegment(int32_t item, int64_t s, int64_t e, PathCategory category, uint32_t name) const {
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

    std::vector<Segment> walk(int64_t A, int64_t B, const std::optional<std::pair<int64_t, int64_t>>& owner,
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
                    segs.push_back(
                        gapSegment(item, std::max(e, A), s, PathCategory::LaunchLatency, items_.name_id[item]));
            }
            if (dep < 0 || e <= A) break;
            item = dep;
            t = e;
        }
        std::reverse(segs.begin(), segs.end());
        nameCpuGaps(segs);
        return segs;
    }

    // visit(pid, tid, range) for each naming range of report r's threads, ns shared timeline.
    template <typename Visit>
    void forEachNamingRange(size_t r, Visit&& visit) const {
        const Report& rep = *reports_[r];
        const int64_t off = traces_[r].offset;
        for (const Lane& lane : rep.lanes) {
            if ((lane.kind != LaneKind::Nvtx && lane.kind != LaneKind::NvtxStartEnd) || lane.thread < 0) continue;
            if (rep.str(lane.name_id) == kPytorchPythonLaneName) continue;
            const Thread& th = rep.threads[size_t(lane.thread)];
            const int64_t pid = th.process >= 0 ? rep.processes[size_t(th.process)].pid : 0;
            for (size_t i = 0; i < lane.events.size(); ++i) {
                if (lane.events.kind[i] != EventKind::NvtxRange) continue;
                visit(pid, th.tid,
                      NamingRange{lane.events.start_ns[i] + off, lane.events.endNs(i) + off, lane.events.name_id[i]});
            }
        }
    }

    // Names each CPU gap by the range of its thread that overlaps most of it.
    void nameCpuGaps(std::vector<Segment>& segs) const {
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

    // ---- what if ------------------------------------------------------------------------------

    // New (start, end) of every item after scaling the durations of the items whose factor is
    // not 1 and replaying the dependency graph (docs/analyses.md, "What if").
    void replay(const std::vector<double>& factorOfItem, int64_t A, std::vector<int64_t>& newS,
                std::vector<int64_t>& newE) const {
        const std::vector<int64_t>& S = items_.start;
        const std::vector<int64_t>& E = items_.end;
        const size_t n = items_.size();
        std::vector<int32_t> waited(n, -1);
        size_t ticks = 0;
        for (size_t i = 0; i < n; ++i) {
            tick(ticks);
            if (items_.side[i] == kCpuSide && kept_[i] && items_.sync[i] != SyncKind::None)
                waited[i] = waitedOp(int32_t(i), S, E);
        }
        auto active = [&](size_t i) { return items_.side[i] == kGpuSide || kept_[i]; };
        // Node 2i: item i's new start, 2i + 1: its new end. 0 new, 1 on the stack, 2 done.
        std::vector<uint8_t> state(2 * n, 0);
        newS.assign(S.begin(), S.end());
        newE.assign(E.begin(), E.end());
        auto selfWaitingLaunch = [&](int32_t op, int32_t dep) {
            return items_.side[dep] == kCpuSide && waited[size_t(dep)] == op;
        };
        // The nodes a node needs.
        auto needs = [&](size_t node, std::vector<size_t>& out) {
            out.clear();
            const int32_t it = int32_t(node / 2);
            if (E[it] <= A) return;
            if (node % 2 == 0) {
                int32_t deps[3];
                const int k = dependencies(it, deps);
                for (int q = 0; q < k; ++q)
                    out.push_back(selfWaitingLaunch(it, deps[q]) ? 2 * size_t(deps[q]) : 2 * size_t(deps[q]) + 1);
                return;
            }
            out.push_back(2 * size_t(it));
            if (waited[size_t(it)] >= 0) out.push_back(2 * size_t(waited[size_t(it)]) + 1);
            if (!group_of_.empty() && group_of_[it] >= 0)
                for (int32_t y : groups_[size_t(group_of_[it])])
                    if (y != it) out.push_back(2 * size_t(y));
        };
        auto scaledDuration = [&](int64_t duration, int32_t it) -> int64_t {
            const double f = factorOfItem[size_t(it)];
            if (f == 1.0) return duration;
            return int64_t(std::floor(static_cast<long double>(duration) / static_cast<long double>(f) + 0.5L));
        };
        auto evaluate = [&](size_t node) {
            const int32_t it = int32_t(node / 2);
            if (E[it] <= A) return;  // keeps its times
            if (node % 2 == 0) {
                int32_t deps[3];
                const int k = dependencies(it, deps);
                if (k == 0) {
                    newS[it] = S[it];
                    return;
                }
                const int32_t bind = binding(deps, k, S[it], S, E);
                int64_t best = INT64_MIN;
                for (int q = 0; q < k; ++q) {
                    const int32_t d = deps[q];
                    int64_t v;
                    if (selfWaitingLaunch(it, d))
                        v = newS[d] + (S[it] - S[d]);
                    else if (d == bind)
                        v = newE[d] + (S[it] - E[d]);
                    else
                        v = newE[d] + std::min<int64_t>(0, S[it] - E[d]);
                    best = std::max(best, v);
                }
                newS[it] = best;
                return;
            }
            const int64_t start = newS[it];
            const int32_t w = waited[size_t(it)];
            if (w >= 0) {
                if (E[w] > S[it])
                    newE[it] = std::max(start, newE[w] + (E[it] - E[w]));
                else
                    newE[it] = std::max(start + scaledDuration(E[it] - S[it], it), newE[w]);
                return;
            }
            if (!group_of_.empty() && group_of_[it] >= 0) {
                const std::vector<int32_t>& group = groups_[size_t(group_of_[it])];
                int64_t arrival = INT64_MIN, newArrival = INT64_MIN;
                for (int32_t y : group) arrival = std::max(arrival, S[y]);
                if (arrival > S[it]) {
                    for (int32_t y : group) newArrival = std::max(newArrival, newS[y]);
                    const int64_t transfer = scaledDuration(std::max<int64_t>(0, E[it] - arrival), it);
                    newE[it] = std::max(start, newArrival + transfer);
                    return;
                }
            }
            newE[it] = start + scaledDuration(E[it] - S[it], it);
        };
        std::vector<std::pair<size_t, bool>> stack;
        std::vector<size_t> scratch;
        for (size_t i = 0; i < n; ++i) {
            if (!active(i)) continue;
            for (size_t root : {2 * i, 2 * i + 1}) {
                if (state[root] == 2) continue;
                stack.emplace_back(root, false);
                while (!stack.empty()) {
                    tick(ticks);
                    auto [node, ready] = stack.back();
                    stack.pop_back();
                    if (state[node] == 2) continue;
                    if (!ready) {
                        if (state[node] == 1) throw std::runtime_error("critical path: dependency cycle in what-if");
                        state[node] = 1;
                        stack.emplace_back(node, true);
                        needs(node, scratch);
                        for (size_t m : scratch)
                            if (state[m] != 2) stack.emplace_back(m, false);
                        continue;
                    }
                    evaluate(node);
                    state[node] = 2;
                }
            }
        }
    }

private:
    const std::vector<const Report*>& reports_;
    std::vector<std::unordered_map<uint64_t, int32_t>> op_of_event_;

    void readCalls(size_t r) {
        const Report& rep = *reports_[r];
        const int64_t off = traces_[r].offset;
        size_t ticks = 0;
        for (size_t li = 0; li < rep.lanes.size(); ++li) {
            const Lane& lane = rep.lanes[li];
            PathCategory category = PathCategory::CudaApi;
            if (lane.kind == LaneKind::CudaApi)
                category = PathCategory::CudaApi;
            else if (lane.kind == LaneKind::OsRuntime)
                category = PathCategory::OsRuntime;
            else if (lane.kind == LaneKind::Mpi)
                category = PathCategory::Mpi;
            else
                continue;
            if (lane.thread < 0) continue;
            const Thread& th = rep.threads[size_t(lane.thread)];
            const int64_t pid = th.process >= 0 ? rep.processes[size_t(th.process)].pid : 0;
            const IntervalColumns& ev = lane.events;
            std::unordered_map<uint32_t, SyncKind> syncOfName;
            for (uint32_t i = 0; i < ev.size(); ++i) {
                tick(ticks);
                uint32_t corr = 0;
                SyncKind sk = SyncKind::None;
                if (category == PathCategory::CudaApi) {
                    if (ev.kind[i] != EventKind::CudaApiCall) continue;
                    corr = ev.payload[i] == kNoPayload ? 0 : ev.payload[i];
                    auto found = syncOfName.find(ev.name_id[i]);
                    if (found == syncOfName.end())
                        found = syncOfName.emplace(ev.name_id[i], syncKindOfName(rep.str(ev.name_id[i]))).first;
                    sk = found->second;
                }
                items_.add(ev.start_ns[i] + off, ev.endNs(i) + off, kCpuSide, category, ev.name_id[i], uint16_t(r), pid,
                           th.tid, -1, -1, corr, sk, int32_t(li), i);
            }
        }
    }

    void indexCalls(size_t r) {
        TraceIndex& t = traces_[r];
        const Report& rep = *reports_[r];
        // Calls of report r are the rows from the first call of r to the end so far.
        size_t first = 0;
        while (first < items_.size() && items_.report[first] != r) ++first;
        size_t last = first;
        while (last < items_.size() && items_.report[last] == r && items_.side[last] == kCpuSide) ++last;
        (void)rep;
        std::map<std::pair<int64_t, int64_t>, std::vector<int32_t>> byThread;
        for (size_t i = first; i < last; ++i) byThread[{items_.pid[i], items_.tid[i]}].push_back(int32_t(i));
        std::vector<CorrKey> all;
        const auto& S = items_.start;
        const auto& E = items_.end;
        for (auto& [key, list] : byThread) {
            std::sort(list.begin(), list.end(), [&](int32_t a, int32_t b) {
                return std::make_tuple(S[a], -E[a], a) < std::make_tuple(S[b], -E[b], b);
            });
            std::vector<int32_t> kept;
            for (int32_t c : list) {
                if (!kept.empty() && S[c] >= S[kept.back()] && E[c] <= E[kept.back()]) {
                    if (items_.corr[c] != 0) all.push_back({items_.pid[c], items_.corr[c], kept.back()});
                    continue;
                }
                kept.push_back(c);
                if (items_.corr[c] != 0) all.push_back({items_.pid[c], items_.corr[c], c});
            }
            for (size_t k = 0; k < kept.size(); ++k) {
                kept_[size_t(kept[k])] = 1;
                if (k > 0) prev_call_[size_t(kept[k])] = kept[k - 1];
            }
            t.thread_calls[key] = std::move(kept);
        }
        // One call per (pid, corr): the earliest (start, row).
        std::sort(all.begin(), all.end(), [&](const CorrKey& a, const CorrKey& b) {
            return std::make_tuple(a.pid, a.corr, S[a.item], a.item) <
                   std::make_tuple(b.pid, b.corr, S[b.item], b.item);
        });
        for (size_t i = 0; i < all.size(); ++i)
            if (i == 0 || all[i].pid != all[i - 1].pid || all[i].corr != all[i - 1].corr)
                t.call_by_corr.push_back(all[i]);
        std::sort(t.call_by_corr.begin(), t.call_by_corr.end(),
                  [](const CorrKey& a, const CorrKey& b) { return a.key() < b.key(); });
    }

    void readOps(size_t r) {
        TraceIndex& t = traces_[r];
        const Report& rep = *reports_[r];
        const int64_t off = t.offset;
        op_of_event_.resize(reports_.size());
        // Kineto: an operation's process is its launching call's (the lowest pid of the calls
        // with its correlation id), else the process with the most CUDA API calls.
        std::unordered_map<uint32_t, int64_t> pidOfCorr;
        int64_t mainPid = 0;
        if (t.kineto) {
            for (const CorrKey& k : t.call_by_corr) pidOfCorr.emplace(k.corr, k.pid);  // sorted by pid: lowest first
            std::map<int64_t, int64_t> apiCalls;
            for (size_t i = 0; i < items_.size(); ++i)
                if (items_.report[i] == r && items_.category[i] == PathCategory::CudaApi) ++apiCalls[items_.pid[i]];
            int64_t most = -1;
            for (const auto& [p, n] : apiCalls)
                if (n > most) most = n, mainPid = p;
        }
        size_t ticks = 0;
        for (size_t li = 0; li < rep.lanes.size(); ++li) {
            const Lane& lane = rep.lanes[li];
            if (lane.kind != LaneKind::GpuStream) continue;
            const IntervalColumns& ev = lane.events;
            const int64_t lanePid = lane.process >= 0 ? rep.processes[size_t(lane.process)].pid : 0;
            const int64_t device = lane.gpu >= 0 ? rep.gpus[size_t(lane.gpu)].device_id : 0;
            std::unordered_map<uint32_t, bool> ncclName;
            for (uint32_t i = 0; i < ev.size(); ++i) {
                tick(ticks);
                PathCategory category = PathCategory::Kernel;
                switch (ev.kind[i]) {
                    case EventKind::Kernel: {
                        auto found = ncclName.find(ev.name_id[i]);
                        if (found == ncclName.end())
                            found = ncclName.emplace(ev.name_id[i], containsNcclCaseless(rep.str(ev.name_id[i]))).first;
                        category = found->second ? PathCategory::Communication : PathCategory::Kernel;
                        break;
                    }
                    case EventKind::Memcpy:
                        category = PathCategory::Memcpy;
                        break;
                    case EventKind::Memset:
                        category = PathCategory::Memset;
                        break;
                    case EventKind::GraphExecution:
                        category = PathCategory::CudaGraph;
                        break;
                    default:
                        continue;
                }
                const uint32_t corr = correlationIdOf(rep, {uint32_t(li), i}).value_or(0);
                int64_t pid = lanePid;
                if (t.kineto) {
                    const auto found = corr != 0 ? pidOfCorr.find(corr) : pidOfCorr.end();
                    pid = found != pidOfCorr.end() ? found->second : mainPid;
                }
                op_of_event_[r].emplace((uint64_t(li) << 32) | i, int32_t(items_.size()));
                items_.add(ev.start_ns[i] + off, ev.endNs(i) + off, kGpuSide, category, ev.name_id[i], uint16_t(r), pid,
                           -1, device, lane.stream_id, corr, SyncKind::None, int32_t(li), i);
            }
        }
    }

    void indexOps(size_t r) {
        TraceIndex& t = traces_[r];
        const auto& S = items_.start;
        const auto& E = items_.end;
        std::map<std::pair<int64_t, int64_t>, std::vector<int32_t>> byStream;
        for (size_t i = 0; i < items_.size(); ++i) {
            if (items_.report[i] != r || items_.side[i] != kGpuSide) continue;
            // An operation's correlation id 0 is an id like the others (nsys's unified-memory
            // migrations carry 0: enqueued before every call).
            byStream[{items_.pid[i], items_.stream[i]}].push_back(int32_t(i));
            t.ops_by_corr.push_back({items_.pid[i], items_.corr[i], int32_t(i)});
        }
        std::sort(t.ops_by_corr.begin(), t.ops_by_corr.end(),
                  [](const CorrKey& a, const CorrKey& b) { return a.key() < b.key(); });
        for (auto& [key, list] : byStream) {
            std::vector<int32_t> ex = list;
            std::sort(ex.begin(), ex.end(), [&](int32_t a, int32_t b) {
                return std::make_tuple(S[a], E[a], items_.corr[a], a) < std::make_tuple(S[b], E[b], items_.corr[b], b);
            });
            for (size_t k = 1; k < ex.size(); ++k) prev_op_[size_t(ex[k])] = ex[k - 1];
            StreamOps& s = t.streams[key];
            s.by_corr = list;
            std::sort(s.by_corr.begin(), s.by_corr.end(), [&](int32_t a, int32_t b) {
                return std::make_tuple(items_.corr[a], S[a], a) < std::make_tuple(items_.corr[b], S[b], b);
            });
            for (int32_t o : s.by_corr) s.corrs.push_back(items_.corr[o]);
        }
    }

    // Synchronization rows and event records: stream waits (event_dep_) and sync facts.
    void readSyncs(size_t r) {
        TraceIndex& t = traces_[r];
        const Report& rep = *reports_[r];
        auto pidOfLane = [&](const Lane& lane) {
            return lane.process >= 0 ? rep.processes[size_t(lane.process)].pid : int64_t{0};
        };
        // Event records: (pid, eventSyncId) -> (stream, corr); (pid, eventId) -> [(corr, stream)].
        // Kineto keys them by 0 for the pid (its sync events name no process).
        struct Rec {
            uint32_t row;
            int64_t pid, stream;
        };
        std::vector<Rec> recs;
        for (const Lane& lane : rep.lanes) {
            if (lane.kind != LaneKind::GpuStream) continue;
            for (size_t i = 0; i < lane.instants.size(); ++i) {
                const uint32_t row = lane.instants.payload[i];
                if (row < rep.cuda_events.size()) recs.push_back({row, t.kineto ? 0 : pidOfLane(lane), lane.stream_id});
            }
        }
        std::sort(recs.begin(), recs.end(), [](const Rec& a, const Rec& b) { return a.row < b.row; });
        std::map<std::pair<int64_t, uint32_t>, std::pair<int64_t, int64_t>> bySyncId;
        std::map<std::pair<int64_t, uint32_t>, std::vector<std::pair<int64_t, int64_t>>> byEvent;
        for (const Rec& rec : recs) {
            const CudaEventInfo& info = rep.cuda_events[rec.row];
            if (validSyncId(info.event_sync_id))
                bySyncId[{rec.pid, info.event_sync_id}] = {rec.stream, int64_t{info.correlation_id}};
            byEvent[{rec.pid, info.event_id}].emplace_back(int64_t{info.correlation_id}, rec.stream);
        }
        for (auto& [key, list] : byEvent) std::sort(list.begin(), list.end());
        auto recordOf = [&](int64_t pid, uint32_t syncId, uint32_t eventId,
                            int64_t beforeCorr) -> std::optional<std::pair<int64_t, int64_t>> {
            if (validSyncId(syncId)) {
                const auto found = bySyncId.find({pid, syncId});
                if (found != bySyncId.end()) return found->second;
            }
            if (t.kineto) return std::nullopt;
            const auto found = byEvent.find({pid, eventId});
            if (found == byEvent.end()) return std::nullopt;
            const auto& list = found->second;
            const auto at = std::lower_bound(list.begin(), list.end(), std::pair<int64_t, int64_t>{beforeCorr, -1});
            if (at == list.begin()) return std::nullopt;
            return std::pair{std::prev(at)->second, std::prev(at)->first};
        };
        // The first CUDA API call (in row order) of each (pid, corr); Kineto: of each corr.
        struct CallOfCorr {
            int64_t pid;
            uint32_t corr;
            int32_t item;
        };
        std::vector<CallOfCorr> calls;
        for (size_t i = 0; i < items_.size(); ++i)
            if (items_.report[i] == r && items_.category[i] == PathCategory::CudaApi && items_.corr[i] != 0)
                calls.push_back({t.kineto ? 0 : items_.pid[i], items_.corr[i], int32_t(i)});
        std::sort(calls.begin(), calls.end(), [](const CallOfCorr& a, const CallOfCorr& b) {
            return std::tie(a.pid, a.corr, a.item) < std::tie(b.pid, b.corr, b.item);
        });
        auto callOf = [&](int64_t pid, uint32_t corr) -> int32_t {
            const auto at =
                std::lower_bound(calls.begin(), calls.end(), CallOfCorr{pid, corr, INT32_MIN},
                                 [](const CallOfCorr& a, const CallOfCorr& b) {
                                     return std::tie(a.pid, a.corr, a.item) < std::tie(b.pid, b.corr, b.item);
                                 });
            return at != calls.end() && at->pid == pid && at->corr == corr ? at->item : -1;
        };
        struct SyncRow {
            uint32_t row;
            int64_t pid, stream;
        };
        std::vector<SyncRow> rows;
        for (const Lane& lane : rep.lanes) {
            if (lane.kind != LaneKind::CudaSync) continue;
            for (size_t i = 0; i < lane.events.size(); ++i)
                if (lane.events.kind[i] == EventKind::Sync && lane.events.payload[i] < rep.syncs.size())
                    rows.push_back({lane.events.payload[i], t.kineto ? 0 : pidOfLane(lane), lane.stream_id});
        }
        std::sort(rows.begin(), rows.end(), [](const SyncRow& a, const SyncRow& b) { return a.row < b.row; });
        struct Wait {
            int64_t pid;
            uint32_t waitCorr;
            int64_t waitStream, recStream, recCorr;
        };
        std::vector<Wait> waits;
        for (const SyncRow& sr : rows) {
            const SyncInfo& info = rep.syncs[sr.row];
            const uint32_t corr = info.correlation_id;
            const int32_t call = callOf(sr.pid, corr);
            if (call < 0) continue;
            const int64_t pid = items_.pid[call];
            const bool validStream = sr.stream >= 0 && sr.stream != 0xFFFFFFFF;
            if (isStreamWait(rep.str(items_.name_id[call]))) {
                const auto rec = recordOf(sr.pid, info.event_sync_id, info.event_id, corr);
                if (rec && validStream && (!t.kineto || (rec->first >= 0 && rec->second >= 0)))
                    waits.push_back({pid, corr, sr.stream, rec->first, rec->second});
            } else if (items_.sync[call] == SyncKind::Stream && validStream) {
                t.sync_facts[{pid, corr}] = SyncFact{sr.stream, -1, -1};
            } else if (items_.sync[call] == SyncKind::Event) {
                const auto rec = recordOf(sr.pid, info.event_sync_id, info.event_id, corr);
                if (rec && (!t.kineto || (rec->first >= 0 && rec->second >= 0)))
                    t.sync_facts[{pid, corr}] = SyncFact{-1, rec->first, rec->second};
            }
        }
        const auto& S = items_.start;
        const auto& E = items_.end;
        for (const Wait& w : waits) {
            const int32_t producer = lastOpBefore(streamOf(t, w.pid, w.recStream), w.recCorr);
            const int32_t consumer = firstOpAfter(streamOf(t, w.pid, w.waitStream), w.waitCorr);
            if (producer < 0 || consumer < 0 || producer == consumer) continue;
            int32_t& old = event_dep_[size_t(consumer)];
            if (old < 0 || std::make_tuple(E[producer], -S[producer], -int64_t{producer}) >
                               std::make_tuple(E[old], -S[old], -int64_t{old}))
                old = producer;
        }
    }
};

std::array<int64_t, kPathCategoryCount> totalsByCategory(const PathSegments& segs) {
    std::array<int64_t, kPathCategoryCount> totals{};
    for (size_t i = 0; i < segs.size(); ++i) totals[size_t(segs.category[i])] += segs.end_ns[i] - segs.start_ns[i];
    return totals;
}

std::vector<PathNameTotal> topNames(const std::vector<const Report*>& reports, const PathSegments& segs) {
    std::map<std::pair<std::string_view, std::string_view>, std::pair<PathCategory, int64_t>> totals;
    for (size_t i = 0; i < segs.size(); ++i) {
        const PathCategory c = segs.category[i];
        auto& slot = totals[{kCategoryNames[size_t(c)], reports[segs.report[i]]->str(segs.name_id[i])}];
        slot.first = c;
        slot.second += segs.end_ns[i] - segs.start_ns[i];
    }
    std::vector<PathNameTotal> out;
    for (const auto& [key, value] : totals) out.push_back({value.first, std::string(key.second), value.second});
    std::stable_sort(out.begin(), out.end(), [](const PathNameTotal& a, const PathNameTotal& b) {
        if (a.ns != b.ns) return a.ns > b.ns;
        const std::string_view ca = kCategoryNames[size_t(a.category)], cb = kCategoryNames[size_t(b.category)];
        if (ca != cb) return ca < cb;
        return a.name < b.name;
    });
    if (out.size() > 50) out.resize(50);
    return out;
}

void storeSegments(const std::vector<Segment>& segs, CriticalPath& path) {
    std::unordered_map<std::string, uint32_t> labelIds;
    for (size_t k = 0; k < path.lane_labels.size(); ++k) labelIds.emplace(path.lane_labels[k], uint32_t(k));
    PathSegments& out = path.segments;
    for (const Segment& s : segs) {
        out.start_ns.push_back(s.start);
        out.end_ns.push_back(s.end);
        out.category.push_back(s.category);
        out.report.push_back(s.report);
        out.name_id.push_back(s.name_id);
        out.lane.push_back(s.lane);
        out.event.push_back(s.event);
        auto [it, inserted] = labelIds.emplace(s.lane_label, uint32_t(path.lane_labels.size()));
        if (inserted) path.lane_labels.push_back(s.lane_label);
        out.lane_label.push_back(it->second);
    }
}

}  // namespace critical_path_detail

std::string_view pathCategoryName(PathCategory category) {
    return critical_path_detail::kCategoryNames[size_t(category)];
}

std::optional<WhatIfRule> parseWhatIfRule(std::string_view text) {
    const size_t eq = text.rfind('=');
    if (eq == std::string_view::npos || eq == 0) return std::nullopt;
    const std::string factorText(text.substr(eq + 1));
    char* end = nullptr;
    const double factor = std::strtod(factorText.c_str(), &end);
    if (factorText.empty() || end != factorText.c_str() + factorText.size() || !(factor > 0) || !std::isfinite(factor))
        return std::nullopt;
    WhatIfRule rule{std::string(text.substr(0, eq)), factor};
    try {
        std::regex check(rule.regex);
    } catch (const std::regex_error&) {
        return std::nullopt;
    }
    return rule;
}

std::optional<OwnedRange> stepOwnedRange(const Report& report, int64_t number) {
    for (const StepRange& s : findSteps(report)) {
        if (s.number != number) continue;
        if (s.range.lane >= report.lanes.size()) return std::nullopt;
        return OwnedRange{s.start_ns, s.end_ns, report.lanes[s.range.lane].thread};
    }
    return std::nullopt;
}

std::optional<OwnedRange> nvtxOwnedRange(const Report& report, std::string_view name) {
    const uint32_t id = report.strings.find(name);
    if (id == UINT32_MAX) return std::nullopt;
    std::optional<OwnedRange> best;
    for (const Lane& lane : report.lanes) {
        if ((lane.kind != LaneKind::Nvtx && lane.kind != LaneKind::NvtxStartEnd) || lane.thread < 0) continue;
        for (size_t i = 0; i < lane.events.size(); ++i) {
            if (lane.events.name_id[i] != id || lane.events.kind[i] != EventKind::NvtxRange) continue;
            if (!best || lane.events.start_ns[i] < best->begin_ns)
                best = OwnedRange{lane.events.start_ns[i], lane.events.endNs(i), lane.thread};
            break;  // the lane's first of that name (sorted by start)
        }
    }
    return best;
}

CriticalPath computeCriticalPath(const std::vector<const Report*>& reports, const CriticalPathOptions& options) {
    using namespace critical_path_detail;
    if (reports.empty()) throw std::invalid_argument("no report");
    const bool several = reports.size() > 1;
    CriticalPath path;
    path.several_ranks = several;

    // Alignment as the Ranks panel does it: NCCL collectives when every rank has some.
    std::vector<int64_t> offsets(reports.size(), 0);
    RankAlignment alignment;
    std::vector<CollectiveColumns> collectives;
    if (several) {
        std::vector<RankInput> inputs(reports.size());
        collectives.resize(reports.size());
        bool allNccl = true;
        for (size_t r = 0; r < reports.size(); ++r) {
            inputs[r].file_name = reports[r]->meta.fileName();
            inputs[r].source_path = reports[r]->meta.source_path;
            inputs[r].start_utc_ns = reports[r]->meta.start_utc_ns;
            collectives[r] = toColumns(ncclCollectives(*reports[r]));
            allNccl = allNccl && !collectives[r].empty();
        }
        std::vector<const CollectiveColumns*> lists;
        for (const CollectiveColumns& c : collectives) lists.push_back(&c);
        alignment = alignRanks(inputs, lists, allNccl ? AlignMode::Nccl : AlignMode::Clock);
        offsets = alignment.offsets_ns;
        path.notes = alignment.notes;
        if (!allNccl) path.notes.push_back("not every rank has NCCL collectives: aligned by clock");
    }

    path.offsets_ns = offsets;
    PathEngine engine(reports, offsets, several);
    Items& items = engine.items_;

    // Matched collectives: the reference's each with the ones matched to it.
    if (several && alignment.reference >= 0) {
        engine.group_of_.assign(items.size(), -1);
        const size_t ref = size_t(alignment.reference);
        for (size_t c = 0; c < collectives[ref].size(); ++c) {
            std::vector<int32_t> group;
            for (size_t r = 0; r < reports.size(); ++r) {
                if (alignment.matches[r].empty() || c >= alignment.matches[r].size()) continue;
                const int32_t k = alignment.matches[r][c];
                if (k < 0) continue;
                const EventRef ev = collectives[r].ref[size_t(k)];
                const int32_t item = engine.itemOfEvent(r, ev.lane, ev.index);
                if (item >= 0) group.push_back(item);
            }
            if (group.size() < 2) continue;
            for (int32_t it : group) engine.group_of_[size_t(it)] = int32_t(engine.groups_.size());
            engine.groups_.push_back(std::move(group));
        }
    }

    int64_t A = 0, B = 0;
    if (options.range) {
        A = options.range->first;
        B = options.range->second;
    } else {
        bool any = false;
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (size_t i = 0; i < items.size(); ++i) lo = std::min(lo, items.start[i]), hi = std::max(hi, items.end[i]);
        any = items.size() > 0;
        for (size_t r = 0; r < reports.size(); ++r)
            engine.forEachNamingRange(r, [&](int64_t, int64_t, const NamingRange& range) {
                lo = std::min(lo, range.start);
                hi = std::max(hi, range.end);
                any = true;
            });
        if (!any) throw std::invalid_argument("no events");
        A = lo;
        B = hi;
    }
    if (B < A) throw std::invalid_argument("range end before start");
    path.begin_ns = A;
    path.end_ns = B;

    std::optional<std::pair<int64_t, int64_t>> owner;
    if (options.owner_thread >= 0 && size_t(options.owner_thread) < reports[0]->threads.size()) {
        const Report& rep = *reports[0];
        const Thread& th = rep.threads[size_t(options.owner_thread)];
        owner = std::pair{th.process >= 0 ? rep.processes[size_t(th.process)].pid : int64_t{0}, th.tid};
    } else {
        owner = engine.mainThread();
    }

    storeSegments(engine.walk(A, B, owner, items.start, items.end), path);
    path.by_category = totalsByCategory(path.segments);
    path.by_name = topNames(reports, path.segments);

    if (!options.what_if.empty()) {
        std::vector<std::regex> regexes;
        for (const WhatIfRule& rule : options.what_if) regexes.emplace_back(rule.regex);
        std::vector<double> factor(items.size(), 1.0);
        std::map<std::pair<uint16_t, uint32_t>, double> factorOfName;
        for (size_t i = 0; i < items.size(); ++i) {
            const auto key = std::pair{items.report[i], items.name_id[i]};
            auto found = factorOfName.find(key);
            if (found == factorOfName.end()) {
                double f = 1.0;
                const std::string name(reports[key.first]->str(key.second));
                for (size_t k = 0; k < regexes.size(); ++k)
                    if (std::regex_search(name, regexes[k])) {
                        f = options.what_if[k].factor;
                        break;
                    }
                found = factorOfName.emplace(key, f).first;
            }
            factor[i] = found->second;
        }
        const int32_t first = engine.startItem(owner, A, B, items.start, items.end);
        std::vector<int64_t> newS, newE;
        engine.replay(factor, A, newS, newE);
        const int64_t newB = first < 0 ? B : newE[size_t(first)] + (B - items.end[size_t(first)]);
        path.what_if_length_ns = newB - A;
        if (newB > A) {
            CriticalPath replayed;
            storeSegments(engine.walk(A, newB, owner, newS, newE), replayed);
            path.what_if_by_category = totalsByCategory(replayed.segments);
            path.what_if_by_name = topNames(reports, replayed.segments);
        }
    }
    return path;
}

std::string_view segmentName(const std::vector<const Report*>& reports, const CriticalPath& path, size_t segment) {
    return reports[path.segments.report[segment]]->str(path.segments.name_id[segment]);
}

}  // namespace lanescope
