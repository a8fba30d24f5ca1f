// The critical path's engine (private to analysis/critical_path/): the items of all reports, their
// indexes, and the walk and what-if replay over them.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/Cancellation.h"
#include "analysis/critical_path/CriticalPath.h"
#include "model/Report.h"

namespace lanescope::critical_path_detail {

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

// One stream of one process: its operations by (correlation id, start, row) (enqueue order) with
// their correlation ids alongside (for binary search). Their execution order (by start) is in
// PathEngine::prev_op_.
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

// The indexes of one report's items (an item is a row of Items). offset: ns added to the report's
// own times to put them on the shared timeline.
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

// A piece of the path, [start, end) in ns on the shared timeline: an item's time on it or a gap
// before an item. The walk returns them in time order (ascending start), contiguous.
struct Segment {
    int64_t start, end;
    PathCategory category;
    uint16_t report;
    uint32_t name_id;
    std::string lane_label;
    int32_t lane, event;
    int64_t thread_pid, thread_tid;  // a CPU gap's thread; pid -1 when none
};

// pathCategoryName's names, in PathCategory order.
inline constexpr std::string_view kCategoryNames[kPathCategoryCount] = {
    "Kernel",     "Memcpy", "Memset", "CUDA graph",     "Communication", "CUDA API",
    "OS runtime", "MPI",    "CPU",    "Launch latency", "Sync latency",  "Wait for rank"};

// Counts a step of a long loop; every 65536th, cancellationPoint() (analysis/Cancellation.h).
inline void tick(size_t& counter) {
    if ((++counter & 0xFFFF) == 0) cancellationPoint();
}

// The whole computation over the items; times are passed in (the original ones, or the
// what-if's replayed ones). The items are read and indexed by the constructor
// (PathEngineItems.cpp); walk (PathEngineWalk.cpp) and replay (PathEngineReplay.cpp) use them.
class PathEngine {
public:
    PathEngine(const std::vector<const Report*>& reports, const std::vector<int64_t>& offsets, bool several);

    Items items_;
    std::vector<TraceIndex> traces_;
    // Per item (row of items_), -1 when none: prev_call_, an outermost call's previous outermost
    // call of its thread (by start); prev_op_, an operation's previous operation on its stream (by
    // start, end, correlation id, row: execution order); event_dep_, the operation an operation
    // waited for through an event (cudaStreamWaitEvent).
    std::vector<int32_t> prev_call_, prev_op_, event_dep_;
    // Per item: 1 for an outermost call of its thread (a call not inside another), else 0.
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

    int32_t lastOpBefore(const StreamOps* s, int64_t corr) const;
    int32_t firstOpAfter(const StreamOps* s, int64_t corr) const;
    // Of the operations enqueued on the stream before corrBound, the one that ended last at or
    // before endBound.
    int32_t lastDoneOnStream(const StreamOps* s, int64_t corrBound, int64_t endBound, const std::vector<int64_t>& S,
                             const std::vector<int64_t>& E) const;

    // The last GPU operation a synchronizing call waited for that ended at or before the call
    // did, or -1.
    int32_t waitedOp(int32_t call, const std::vector<int64_t>& S, const std::vector<int64_t>& E) const;

    // ---- dependencies -------------------------------------------------------------------------

    int32_t launchOf(int32_t op) const;

    // At most 3: [previous call] or [launch, previous op, event producer].
    int dependencies(int32_t item, int32_t out[3]) const;

    int32_t binding(const int32_t* deps, int n, int64_t release, const std::vector<int64_t>& S,
                    const std::vector<int64_t>& E) const;

    // ---- the walk -----------------------------------------------------------------------------

    // The owning thread of the first report: (pid, tid), or nullopt.
    std::optional<std::pair<int64_t, int64_t>> mainThread() const;

    // The owning thread's call that ended last within [A, B], or -1.
    int32_t startItem(const std::optional<std::pair<int64_t, int64_t>>& owner, int64_t A, int64_t B,
                      const std::vector<int64_t>& S, const std::vector<int64_t>& E) const;

    std::string laneLabel(int32_t item) const;
    std::string threadLabel(size_t report, int64_t pid, int64_t tid) const;

    Segment itemSegment(int32_t item, int64_t s, int64_t e) const;
    Segment gapSegment(int32_t item, int64_t s, int64_t e, PathCategory category, uint32_t name) const;

    std::vector<Segment> walk(int64_t A, int64_t B, const std::optional<std::pair<int64_t, int64_t>>& owner,
                              const std::vector<int64_t>& S, const std::vector<int64_t>& E) const;

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
    void nameCpuGaps(std::vector<Segment>& segs) const;

    // ---- what if ------------------------------------------------------------------------------

    // New (start, end) of every item after scaling the durations of the items whose factor is
    // not 1 and replaying the dependency graph (docs/analyses.md, "What if").
    void replay(const std::vector<double>& factorOfItem, int64_t A, std::vector<int64_t>& newS,
                std::vector<int64_t>& newE) const;

private:
    const std::vector<const Report*>& reports_;
    // Per report: (lane << 32 | event index) -> the GPU operation's item.
    std::vector<std::unordered_map<uint64_t, int32_t>> op_of_event_;

    void readCalls(size_t r);
    void indexCalls(size_t r);
    void readOps(size_t r);
    void indexOps(size_t r);
    // Synchronization rows and event records: stream waits (event_dep_) and sync facts.
    void readSyncs(size_t r);
};

}  // namespace lanescope::critical_path_detail
