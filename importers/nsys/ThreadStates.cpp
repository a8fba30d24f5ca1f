// Context switches (SCHED_EVENTS) into what each thread did when, and which thread each core ran.
#include <algorithm>
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
    std::stable_sort(sched_.begin(), sched_.end(), [](const SchedRow& a, const SchedRow& b) {
        return std::tie(a.global_tid, a.start_ns) < std::tie(b.global_tid, b.start_ns);
    });
    int64_t lastTime = INT64_MIN;
    for (const SchedRow& row : sched_) lastTime = std::max(lastTime, row.start_ns);

    const uint32_t stateNames[] = {report_.strings.intern(threadRunStateName(ThreadRunState::Running)),
                                   report_.strings.intern(threadRunStateName(ThreadRunState::Blocked)),
                                   report_.strings.intern(threadRunStateName(ThreadRunState::Preempted)),
                                   report_.strings.intern(threadRunStateName(ThreadRunState::Unknown))};
    auto push = [](Lane& lane, int64_t start, int64_t end, uint32_t name, EventKind kind, uint32_t payload) {
        lane.events.append(start, end, name, payload, kind);
    };

    for (size_t first = 0; first < sched_.size();) {
        const int64_t gtid = sched_[first].global_tid;
        size_t last = first;
        while (last < sched_.size() && sched_[last].global_tid == gtid) ++last;

        const int32_t thread = threadIndex(gtid);
        const LaneKey statesKey{LaneKind::ThreadState, gtid};
        const size_t statesAt = laneIndex(statesKey);  // an index: creating core lanes moves lanes
        const auto osrt = lanes_.find(LaneKey{LaneKind::OsRuntime, gtid});
        const CallCover calls(osrt == lanes_.end() ? nullptr : &report_.lanes[osrt->second]);
        const uint32_t threadName = report_.threads[static_cast<size_t>(thread)].name_id;

        int64_t runStart = INT64_MIN, outAt = INT64_MIN;
        int32_t runCpu = 0, outCpu = 0;
        int32_t runRecorded = -1, outRecorded = -1;  // the recorded states of the switches that began them
        ThreadRunState outState = ThreadRunState::Unknown;
        auto closeRun = [&](int64_t end, int32_t endRecorded) {
            push(report_.lanes[statesAt], runStart, end, stateNames[0], EventKind::ThreadState,
                 threadStatePayload(ThreadRunState::Running, static_cast<uint32_t>(runCpu), runRecorded, endRecorded));
            const size_t core = laneIndex(LaneKey{LaneKind::CpuCore, runCpu});  // may move the lanes
            push(report_.lanes[core], runStart, end, threadName, EventKind::CoreRun, static_cast<uint32_t>(thread));
        };
        for (size_t i = first; i < last; ++i) {
            const SchedRow& row = sched_[i];
            if (row.sched_in) {
                if (runStart != INT64_MIN) {
                    countDiagnostic(report_.diagnostics, Diag::SchedSwitchInWithoutSwitchOut);
                    closeRun(row.start_ns, -1);
                }
                if (outAt != INT64_MIN)
                    push(report_.lanes[statesAt], outAt, row.start_ns, stateNames[static_cast<size_t>(outState)],
                         EventKind::ThreadState,
                         threadStatePayload(outState, static_cast<uint32_t>(outCpu), outRecorded));
                runStart = row.start_ns;
                runCpu = row.cpu;
                runRecorded = row.state;
                outAt = INT64_MIN;
                continue;
            }
            if (runStart == INT64_MIN)
                countDiagnostic(report_.diagnostics, Diag::SchedSwitchOutWithoutSwitchIn);
            else
                closeRun(row.start_ns, row.state);
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
            closeRun(std::max(runStart, lastTime), -1);
        }
        first = last;
    }
    sched_ = {};
}

}  // namespace lanescope::nsys
