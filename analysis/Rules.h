#pragma once
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/StatsTable.h"
#include "model/Find.h"
#include "model/Report.h"

namespace lanescope {

// The rules of `nsys analyze` (Nsight Systems' expert system), with its CSV columns, row
// order, row limit and rounding. Each returns nsys's table; a table with no rows means nsys
// prints nothing at all (not even the header): print toCsv(table) only when it has rows.
// Verified against nsys 2025.3 on the corpus and nsys 2022.4 (same queries) on variants of it
// (tests/analysis/RulesTest.cpp). gpu_time_util is in analysis/GpuUtilization.h.
//
// cuda_api_sync: CUDA API calls whose name is LIKE 'cudaDeviceSynchronize%' or
//   'cudaStreamSynchronize%' (SQL LIKE: ASCII case-insensitive; cudaEventSynchronize and
//   cudaStreamWaitEvent are not listed). Columns: Duration (ns), Start (ns), PID, TID, API Name
//   (the raw name, version suffix kept: "cudaStreamSynchronize_v3020").
// cuda_memcpy_async: GPU memcpys with a pageable source or destination whose API call (any
//   CUDA API call with the memcpy's correlation id) is named LIKE 'cudaMemcpy%Async%'.
//   Duration and Start are the GPU memcpy's, not the call's. Columns: Duration (ns),
//   Start (ns), Src Kind, Dst Kind, Bytes (MB), PID, Device ID, Context ID, Green Context ID,
//   Stream ID, API Name.
// cuda_memcpy_sync: GPU memcpys whose API call is LIKE 'cudaMemcpy%' and NOT LIKE '%Async%',
//   except host-to-device copies of 64000 bytes or less (CUDA returns before those complete)
//   and copies whose source and destination device ids are equal (nsys: `srcDeviceId IS NOT
//   NULL AND srcDeviceId == dstDeviceId`; the model has no device ids per copy, and nsys
//   2025.3 exports leave them NULL except for peer copies, so no copy is excluded that way).
//   Columns as cuda_memcpy_async: every corpus report gives no rows, so the 2025.3 header is
//   inferred: nsys 2022.4 prints the same columns for both memcpy rules, and 2025.3 added
//   Green Context ID to cuda_memcpy_async and cuda_memset_sync alike.
// cuda_memset_sync: GPU memsets of pinned or managed memory whose API call is LIKE
//   'cudaMemset%' and NOT LIKE '%async%'. Columns: Duration (ns), Start (ns), Memory Kind,
//   Bytes (MB), PID, Device ID, Context ID, Green Context ID, Stream ID, API Name.
//
// Common to the four: rows sorted by duration descending, ties by start ascending (nsys:
// ORDER BY duration DESC, ties in table order, which is time order in nsys exports), then
// cut to `rows`. Bytes (MB) is bytes / 1e6 with 3 decimals. Green Context ID is always empty:
// nsys prints NULLIF(greenContextId, 0) and the model keeps no green contexts (none in the
// corpus). As nsys's SQL joins GPU work to API calls on the correlation id alone, a memcpy
// or memset is listed once for each matching API call of any process (correlation ids are
// per process, so multi-process reports may list a copy twice, as nsys does). Correlation
// id 0 (none recorded) matches nothing.
//
// Options (every rule, as nsys):
//   rows=N     at most N rows (default 50); negative: all; 0: none.
//   start=NS, end=NS  keep the events overlapping [start, end) (nsys's filtered views: an
//              event is kept when it starts or ends inside, or spans the whole range);
//              start defaults to 0, end to INT64_MAX.
//   nvtx=RANGE[@DOMAIN]  the range and domain of the first NVTX range (by start) named so;
//              explicit start=/end= override its times. Then only the events of its process
//              are kept, or of its thread for CPU events when the range is on a thread other
//              than the process's main thread (nsys compares the pid and tid of the range).
//              The API calls joined to memcpys/memsets are never filtered (nsys joins them
//              from the unfiltered table).
// Values are integers as Python's int() reads them (an optional sign and digits). A bad
// value, an unknown option or an NVTX range that cannot be found throws
// std::invalid_argument with nsys's message.

// Options of one rule, as `name:opt=value:opt2=value` gives them.
struct RuleOptions {
    std::map<std::string, std::string> values;
};

// A rule name and its options.
struct RuleSpec {
    std::string name;
    RuleOptions options;
};

// Parses "name[:opt=value]...", e.g. "gpu_time_util:threshold=20:chunks=10". nullopt, with
// the reason in *error when given, for an empty name or an option without '=' or name. A
// repeated option keeps its last value. Does not check names or values (the rules do).
std::optional<RuleSpec> parseRuleSpec(std::string_view text, std::string* error = nullptr);

// Where one row of a rule's table lies on the timeline, for the GUI to select or zoom to it.
struct RuleFinding {
    // The event the row describes: the API call (cuda_api_sync) or the GPU memcpy/memset
    // (the memcpy/memset rules). None for gpu_time_util, whose rows are time regions.
    std::optional<EventRef> event;
    // The CUDA API call that launched the memcpy/memset (the one the row's API Name names).
    std::optional<EventRef> api_call;
    int64_t begin_ns = 0, end_ns = 0;  // the row's time span: the event's, or the region's
    int32_t process = -1;              // index into Report::processes
    int32_t gpu = -1;                  // index into Report::gpus for GPU rows, else -1
};

// A rule's table and, parallel to its rows, where each row is: findings[i] is table.rows[i].
struct RuleResult {
    StatsTable table;
    std::vector<RuleFinding> findings;
};

// The tables alone (the ...Result functions' table).
StatsTable cudaApiSync(const Report& report, const RuleOptions& options = {});
StatsTable cudaMemcpySync(const Report& report, const RuleOptions& options = {});
StatsTable cudaMemcpyAsync(const Report& report, const RuleOptions& options = {});
StatsTable cudaMemsetSync(const Report& report, const RuleOptions& options = {});

// With findings; found by name through analysis/Registry.h.
RuleResult cudaApiSyncResult(const Report& report, const RuleOptions& options = {});
RuleResult cudaMemcpySyncResult(const Report& report, const RuleOptions& options = {});
RuleResult cudaMemcpyAsyncResult(const Report& report, const RuleOptions& options = {});
RuleResult cudaMemsetSyncResult(const Report& report, const RuleOptions& options = {});

// --- Shared by the rules' implementations (and usable by other nsys-style rules) ---

// The common options rows=, start=, end= and nvtx= resolved against a report.
struct RuleScope {
    int64_t rows = 50;      // row limit; negative: no limit
    bool filtered = false;  // start=, end= or nvtx= given: keep only events in scope
    int64_t begin_ns = 0;
    int64_t end_ns = std::numeric_limits<int64_t>::max();
    int32_t process = -1;  // with nvtx=: only this process (index into Report::processes)
    int32_t thread = -1;   // with nvtx= on a non-main thread: CPU events of this thread only

    // An event [start, end] overlaps [begin_ns, end_ns) as nsys's filtered views test it.
    bool keepsTime(int64_t start, int64_t end) const {
        if (!filtered) return true;
        return (start >= begin_ns && start < end_ns) || (end >= begin_ns && end < end_ns) ||
               (start < begin_ns && end >= end_ns);
    }
    // The events of this lane may be kept (process and thread of nvtx=; time not tested).
    bool keepsLane(const Lane& lane) const;
    bool keepsProcess(int32_t processIndex) const { return process < 0 || processIndex == process; }
};

// Reads rows=, start=, end=, nvtx= and checks that every other option is one of `extra`.
// Throws std::invalid_argument (nsys's messages) for a bad value, an unknown option, an NVTX
// range not found, or start > end.
RuleScope ruleScope(const Report& report, const RuleOptions& options,
                    std::initializer_list<std::string_view> extra = {});

// The integer value of option `name`, `fallback` when absent; throws std::invalid_argument
// ("argument --NAME: invalid int value: 'X'") when it is not an integer.
int64_t ruleIntOption(const RuleOptions& options, std::string_view name, int64_t fallback);

// SQL LIKE as SQLite evaluates it: ASCII case-insensitive, '%' any run, '_' one character.
bool sqlLike(std::string_view pattern, std::string_view text);

}  // namespace lanescope
