#pragma once
#include "analysis/StatsOptions.h"
#include "analysis/StatsTable.h"
#include "model/Report.h"
#include "model/TimeRange.h"

namespace lanescope {

// The unified-memory reports of `nsys stats`, as nsys 2025.3 prints them (verified byte for
// byte on expected/unified_memory and on every corpus report without unified memory, which
// prints nothing). Migrations are the memcpys of kinds UvmHtoD and UvmDtoH with their virtual
// address (Report::migrations); faults the CPU page-fault instants and GPU page-fault events.
// Only events lying wholly inside `range` count. MB = bytes / 10^6 and throughput = bytes *
// (10^9 div duration ns) / 10^6, printed with 3 decimals as nsys's Python prints them. A report
// without migrations or faults gives no rows.
//
// um_sum: one row per migrated virtual address: HtoD and DtoH MB (empty when none that way),
// CPU page faults at exactly that address (count; empty when none), GPU page faults at exactly
// that address (sum of their numbers; empty when none), the throughput of all its migrations
// (their bytes over the sum of their durations). Sorted by throughput descending, ties by
// address; at most options.rows rows (default 10, -1 all).
StatsTable umSum(const Report& report, TimeRange range, const StatsOptions& options = {});
// um_total_sum: one row: HtoD and DtoH MB, the CPU page faults, the GPU page faults (sum of
// their numbers), the lowest and highest migrated virtual address.
StatsTable umTotalSum(const Report& report, TimeRange range);
// um_cpu_page_faults_sum: the CPU page faults by (faulting instruction as nsys names it,
// source file, source line), most first; at most options.rows rows (default 10, -1 all).
StatsTable umCpuPageFaultsSum(const Report& report, TimeRange range, const StatsOptions& options = {});

}  // namespace lanescope
