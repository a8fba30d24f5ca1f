#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/Rules.h"
#include "analysis/StatsOptions.h"
#include "analysis/StatsTable.h"
#include "model/Report.h"
#include "model/TimeRange.h"

namespace lanescope {

// Every statistics report and rule Lanescope computes, found by name: the command line's
// `stats --report` and `analyze --rule`, the viewer's Statistics and Rules panels and the
// benchmarks all go through these two tables, so a new report or rule is added in one place
// (analysis/Registry.cpp).

// One `nsys stats` report, computed over the events lying wholly inside a time range.
struct StatsReportEntry {
    std::string_view name;   // nsys's report name, e.g. "cuda_gpu_kern_sum"
    std::string_view title;  // for people, e.g. "CUDA kernels"
    StatsTable (*compute)(const Report& report, TimeRange range, const StatsOptions& options);
    std::string_view options = {};  // the nsys report options it takes, comma-separated ("base")
};

// In the order the viewer lists them.
const std::vector<StatsReportEntry>& statsReports();
const StatsReportEntry* findStatsReport(std::string_view name);

// One `nsys analyze` rule (and gpu_gaps), with its options ("name:opt=value").
struct RuleEntry {
    std::string_view name;   // e.g. "cuda_api_sync"
    std::string_view title;  // for people
    // Throws std::invalid_argument with nsys's message for a bad option.
    RuleResult (*run)(const Report& report, const RuleOptions& options);
};

// In the order the viewer lists them.
const std::vector<RuleEntry>& rules();
const RuleEntry* findRule(std::string_view name);

// A report name with its options, "cuda_gpu_kern_sum:base" or "um_sum:rows=10": the entry and
// the parsed options, or an error message (unknown report, an option it does not take).
struct StatsRequest {
    const StatsReportEntry* entry = nullptr;
    StatsOptions options;
    std::string error;
};
StatsRequest parseStatsRequest(std::string_view nameWithOptions);

// Conveniences over the tables: one report by name, with options (nullopt when unknown or an
// option is not understood), and every report
// computed on up to `threads` threads, in statsReports() order.
std::optional<StatsTable> computeStats(const Report& report, std::string_view name, TimeRange range = TimeRange::all());
std::vector<StatsTable> computeAllStats(const Report& report, TimeRange range = TimeRange::all(), unsigned threads = 2);
// The reports whose entry in `wanted` (statsReports() order) is true, on up to `threads`
// threads, each with `options`; the others left empty.
std::vector<std::optional<StatsTable>> computeSomeStats(const Report& report, TimeRange range,
                                                        const std::vector<bool>& wanted, unsigned threads = 2,
                                                        const StatsOptions& options = {});
// Computes report `entry` with `options` and writes it as CSV (toCsv's text) through `write`,
// in pieces of about 4 MB: a trace's rows as they are made, so that it is never held whole.
// False once a write fails.
bool writeStatsCsv(const StatsReportEntry& entry, const Report& report, TimeRange range, StatsOptions options,
                   const std::function<bool(std::string_view text)>& write);
// A summary report (its name ends in "_sum"), as opposed to a trace listing every event.
inline bool isSummaryReport(const StatsReportEntry& e) { return e.name.ends_with("_sum"); }
// A report whose rows grow with the events: a trace (one row per event) or nvtx_kern_sum (one
// per NVTX range name and kernel: about 2 million rows and 4 GB while it is built, for 50 M
// events of a report whose range names carry a step number). A viewer computes these when
// they are asked for, not with the others.
inline bool growsWithEvents(const StatsReportEntry& e) { return !isSummaryReport(e) || e.name == "nvtx_kern_sum"; }

}  // namespace lanescope
