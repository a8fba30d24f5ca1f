#include "analysis/NsysCudaApiTrace.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "analysis/NsysStatsSupport.h"

namespace lanescope {

using namespace nsysstats;

namespace {

// Whether a thread has a ThreadNames row (query/ReportTables.cpp): one of the names the report
// recorded, found by (pid, tid); every thread of a report that records none (a PyTorch trace).
bool listedInThreadNames(const Report& report, const Thread& thread) {
    if (report.recorded_names.empty()) return true;
    const int64_t pid = thread.process >= 0 ? report.processes[size_t(thread.process)].pid : 0;
    const auto& names = report.recorded_names;
    const auto it = std::lower_bound(
        names.begin(), names.end(), std::tuple(pid, thread.tid),
        [](const RecordedName& n, const std::tuple<int64_t, int64_t>& key) { return std::tuple(n.pid, n.tid) < key; });
    return it != names.end() && it->pid == pid && it->tid == thread.tid;
}

}  // namespace

StatsTable cudaApiTrace(const Report& report, TimeRange range, const StatsOptions& options) {
    StatsTable table;
    table.name = "cuda_api_trace";
    table.header = {"Start (ns)", "Duration (ns)", "Name", "Result", "CorrID", "Pid", "Tid", "T-Pri", "Thread Name"};
    std::vector<bool> listedByThread(report.threads.size());
    for (size_t t = 0; t < report.threads.size(); ++t)
        listedByThread[t] = listedInThreadNames(report, report.threads[t]);
    TraceRows rows(table, options);
    forEachEventByStart(report, {EventKind::CudaApiCall}, range, [&](const Lane& lane, size_t i) {
        if (!rows.wanted()) return;
        const IntervalColumns& ev = lane.events;
        const Thread* thread = lane.thread >= 0 && static_cast<size_t>(lane.thread) < report.threads.size()
                                   ? &report.threads[static_cast<size_t>(lane.thread)]
                                   : nullptr;
        // A thread with no ThreadNames row prints neither priority nor name, as nsys's LEFT JOIN
        // leaves them NULL (and a row without a priority, no priority).
        const bool listed = thread && listedByThread[size_t(lane.thread)];
        StatsTable::Cell priority = std::string();
        if (listed && thread->priority != kNoPriority) priority = int64_t{thread->priority};
        rows.add({ev.start_ns[i], ev.endNs(i) - ev.start_ns[i], apiDisplayName(report.str(ev.name_id[i])),
                  int64_t{cudaApiResult(report, lane, i)}, int64_t{ev.payload[i]}, pidOf(report, lane),
                  tidOf(report, lane), std::move(priority),
                  listed ? std::string(report.str(thread->name_id)) : std::string()});
    });
    return table;
}

}  // namespace lanescope
