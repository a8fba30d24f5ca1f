#include "analysis/NsysCudaApiTrace.h"

#include <string>
#include <vector>

#include "analysis/NsysStatsSupport.h"

namespace lanescope {

using namespace nsysstats;

StatsTable cudaApiTrace(const Report& report, TimeRange range, const StatsOptions& options) {
    StatsTable table;
    table.name = "cuda_api_trace";
    table.header = {"Start (ns)", "Duration (ns)", "Name", "Result", "CorrID", "Pid", "Tid", "T-Pri", "Thread Name"};
    const std::vector<bool> listedByThread = listedThreads(report);
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
