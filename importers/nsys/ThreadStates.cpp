// Context switches (SCHED_EVENTS) into what each thread did when, and which thread each core ran.
#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "importers/nsys/ReportBuilder.h"
#include "model/DiagnosticKinds.h"

namespace lanescope::nsys {
namespace {

// ENUM_SAMPLING_THREAD_STATE values of a switch-out.
constexpr int32_t kStateRunning = 1, kStateInterruptible = 2, kStateUninterruptible = 3, kStateStopped = 4,
                  kStateTerminated = 5, kStateWaiting = 7;

// When one thread was inside an OS runtime call: its calls sorted by start with the running
// maximum of their ends, so that "is t inside any call" is one binary search.
struct CallCover {
    std::vector<int64_t> start_ns;
    std::vector<int64_t> max_end_ns;  // max end of the calls up to this one

    explicit CallCover(const Lane* lane) {
        if (!lane) return;
        std::vector<std::pair<int64_t, int64_t>> calls;
        for (size_t i = 0; i < lane->events.size(); ++i)
            calls.emplace_back(lane->events.start_ns[i], lane->events.endNs(i));
        std::sort(calls.begin(), calls.end());
        int64_t maxEnd = INT64_MIN;
        for (const auto& [s, e] : calls) {
            start_ns.push_back(s);
            max_end_ns.push_back(maxEnd = std::max(maxEnd, e));
        }
    }
    bool covers(int64_t t) const {
        const auto it = std::upper_bound(start_ns.begin(), start_ns.end(), t);
        return it != start_ns.begin() && max_end_ns[static_cast<size_t>(it - start_ns.begin()) - 1] > t;
    }
};

}  // namespace

void ReportBuilder::addThreadStates() {
    if (sched_.empty()) return;
    // The rows by (thread, start); sched_ stays in file order, for Report::file_order.sched.
    std::vector<uint32_t> byThread(sched_.size());
    std::iota(byThread.begin(), byThread.end(), 0u);
    std::stable_sort(byThread.begin(), byThread.end(), [&](uint32_t a, uint32_t b) {
        return std::tie(sched_[a].global_tid, sched_[a].start_ns) < std::tie(sched_[b].global_tid, sched_[b].start_ns);
    });
    // Per row (in file order): the switch of a core lane it is, as FileOrder::sched counts them
    // (2i begins event i, 2i + 1 ends it, i its index as appended); lane kNoSwitch for a row that
    // begins or ends no run.
    constexpr uint32_t kNoSwitch = UINT32_MAX;
    struct CoreSwitch {
        uint32_t lane = kNoSwitch;
        uint32_t index = 0;
    };
    std::vector<CoreSwitch> switches(sched_.size());
    int64_t lastTime = INT64_MIN;
    for (const SchedRow& row : sched_) lastTime = std::max(lastTime, row.start_ns);

    const uint32_t stateNames[] = {report_.strings.intern(threadRunStateName(ThreadRunState::Running)),
                                   report_.strings.intern(threadRunStateName(ThreadRunState::Blocked)),
                                   report_.strings.intern(threadRunStateName(ThreadRunState::Preempted)),
                                   report_.strings.intern(threadRunStateName(ThreadRunState::Unknown))};
    auto push = [](Lane& lane, int64_t start, int64_t end, uint32_t name, EventKind kind, uint32_t payload) {
        lane.events.append(start, end, name, payload, kind);
    };

    for (size_t first = 0; first < byThread.size();) {
        const int64_t gtid = sched_[byThread[first]].global_tid;
        size_t last = first;
        while (last < byThread.size() && sched_[byThread[last]].global_tid == gtid) ++last;

        const int32_t thread = threadIndex(gtid);
        const LaneKey statesKey{LaneKind::ThreadState, gtid};
        const size_t statesAt = laneIndex(statesKey);  // an index: creating core lanes moves lanes
        const auto osrt = lanes_.find(LaneKey{LaneKind::OsRuntime, gtid});
        const CallCover calls(osrt == lanes_.end() ? nullptr : &report_.lanes[osrt->second]);
        const uint32_t threadName = report_.threads[static_cast<size_t>(thread)].name_id;

        int64_t runStart = INT64_MIN, outAt = INT64_MIN;
        int32_t runCpu = 0, outCpu = 0;
        int32_t runRecorded = -1, outRecorded = -1;  // the recorded states of the switches that began them
        uint32_t runRow = 0;                         // the row (in file order) that began the run
        ThreadRunState outState = ThreadRunState::Unknown;
        // Ends the run at `end`, switched out by row `outRow` (kNoSwitch: by none the file holds).
        auto closeRun = [&](int64_t end, int32_t endRecorded, uint32_t outRow) {
            push(report_.lanes[statesAt], runStart, end, stateNames[0], EventKind::ThreadState,
                 threadStatePayload(ThreadRunState::Running, static_cast<uint32_t>(runCpu), runRecorded, endRecorded));
            const size_t core = laneIndex(LaneKey{LaneKind::CpuCore, runCpu});  // may move the lanes
            const auto event = static_cast<uint32_t>(report_.lanes[core].events.size());
            switches[runRow] = {static_cast<uint32_t>(core), 2 * event};
            if (outRow != kNoSwitch) switches[outRow] = {static_cast<uint32_t>(core), 2 * event + 1};
            push(report_.lanes[core], runStart, end, threadName, EventKind::CoreRun, static_cast<uint32_t>(thread));
        };
        for (size_t i = first; i < last; ++i) {
            const SchedRow& row = sched_[byThread[i]];
            if (row.sched_in) {
                if (runStart != INT64_MIN) {
                    countDiagnostic(report_.diagnostics, Diag::SchedSwitchInWithoutSwitchOut);
                    closeRun(row.start_ns, -1, kNoSwitch);
                }
                if (outAt != INT64_MIN)
                    push(report_.lanes[statesAt], outAt, row.start_ns, stateNames[static_cast<size_t>(outState)],
                         EventKind::ThreadState,
                         threadStatePayload(outState, static_cast<uint32_t>(outCpu), outRecorded));
                runStart = row.start_ns;
                runCpu = row.cpu;
                runRecorded = row.state;
                runRow = byThread[i];
                outAt = INT64_MIN;
                continue;
            }
            if (runStart == INT64_MIN)
                countDiagnostic(report_.diagnostics, Diag::SchedSwitchOutWithoutSwitchIn);
            else
                closeRun(row.start_ns, row.state, byThread[i]);
            runStart = INT64_MIN;
            outCpu = row.cpu;
            outRecorded = row.state;
            switch (row.state) {
                case kStateTerminated:
                    outAt = INT64_MIN;  // nothing follows
                    continue;
                case kStateRunning:
                    outState = ThreadRunState::Preempted;
                    break;
                case kStateInterruptible:
                case kStateUninterruptible:
                case kStateStopped:
                case kStateWaiting:
                    outState = ThreadRunState::Blocked;
                    break;
                default:  // not recorded: blocked when switched out inside an OS runtime call
                    outState = calls.covers(row.start_ns) ? ThreadRunState::Blocked : ThreadRunState::Unknown;
            }
            outAt = row.start_ns;
        }
        if (runStart != INT64_MIN) {
            countDiagnostic(report_.diagnostics, Diag::SchedSwitchInWithoutSwitchOut);
            closeRun(std::max(runStart, lastTime), -1, kNoSwitch);
        }
        first = last;
    }
    for (const CoreSwitch& s : switches)
        if (s.lane != kNoSwitch) appendRun(report_.file_order.sched, {s.lane, s.index, 1, false});
    sched_ = {};
}

}  // namespace lanescope::nsys
