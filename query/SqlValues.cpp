#include "query/SqlValues.h"

namespace lanescope::sql {

std::optional<int64_t> globalPidOf(const Report& report, int32_t process) {
    if (process < 0 || size_t(process) >= report.processes.size()) return std::nullopt;
    return globalPidOfPid(report.processes[size_t(process)].pid);
}

std::optional<int64_t> globalTidOf(const Report& report, int32_t thread) {
    if (thread < 0 || size_t(thread) >= report.threads.size()) return std::nullopt;
    const Thread& t = report.threads[size_t(thread)];
    const int64_t pid = t.process >= 0 ? report.processes[size_t(t.process)].pid : 0;
    return globalTidOfTid(pid, t.tid);
}

}  // namespace lanescope::sql
