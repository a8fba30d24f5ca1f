#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/Report.h"

namespace lanescope {

// The critical path of a time range (docs/analyses.md, "Critical path"): which chain of CPU
// calls, GPU operations and gaps between them set the range's length, found by a walk backwards
// from the range's end, each item to the dependency that released it last. Over one report, or
// over several (the ranks of one job, aligned as the Ranks panel aligns them).
// tests/tools/critical_path_reference.py implements the same definition independently.

// What a segment of the path is. The order is the one by_category lists them in.
enum class PathCategory : uint8_t {
    Kernel,
    Memcpy,
    Memset,
    CudaGraph,
    Communication,
    CudaApi,
    OsRuntime,
    Mpi,
    Cpu,
    LaunchLatency,
    SyncLatency,
    WaitForRank,
};
inline constexpr size_t kPathCategoryCount = 12;
// "Kernel", "Memcpy", "Memset", "CUDA graph", "Communication", "CUDA API", "OS runtime", "MPI",
// "CPU", "Launch latency", "Sync latency", "Wait for rank".
std::string_view pathCategoryName(PathCategory category);

// --what-if REGEX=FACTOR: the items whose name `regex` matches (anywhere: std::regex_search,
// ECMAScript) become `factor` times faster. The first matching rule applies.
struct WhatIfRule {
    std::string regex;
    double factor = 1.0;
};
// "REGEX=FACTOR" (split at the last '='); nullopt when malformed, the factor not a positive
// number or the regex invalid.
std::optional<WhatIfRule> parseWhatIfRule(std::string_view text);

// What to compute. Times in ns on the first report's timeline (the shared timeline of aligned
// ranks).
struct CriticalPathOptions {
    // [begin_ns, end_ns]; nullopt: the whole report(s), from the first item's or naming range's
    // start to the last one's end.
    std::optional<std::pair<int64_t, int64_t>> range;
    // The thread that owns the range (a step's or NVTX range's thread), an index into the first
    // report's threads; -1: the main thread (docs/analyses.md, "Where it starts and stops").
    int32_t owner_thread = -1;
    std::vector<WhatIfRule> what_if;  // empty: no what-if
};

// A range given by a step or an NVTX range: its times (on its report's own timeline) and the
// thread that owns it (index into Report::threads).
struct OwnedRange {
    int64_t begin_ns = 0;
    int64_t end_ns = 0;
    int32_t thread = -1;
};
// The step numbered `number` as the Ranks panel counts steps (analysis/ranks/Steps.h findSteps:
// the number in the step range's name); nullopt when there is none.
std::optional<OwnedRange> stepOwnedRange(const Report& report, int64_t number);
// The first (earliest start; ties: lane order) NVTX range, PyTorch operator or annotation named
// exactly `name`; nullopt when none.
std::optional<OwnedRange> nvtxOwnedRange(const Report& report, std::string_view name);

// The path's segments as columns, in time order (ascending start_ns), contiguous, covering the
// range; all of one length: one row per segment. Times in ns on the shared timeline.
struct PathSegments {
    std::vector<int64_t> start_ns, end_ns;
    std::vector<PathCategory> category;
    std::vector<uint16_t> report;      // index of the report (the rank: its position among the files)
    std::vector<uint32_t> name_id;     // into reports[report]->strings; 0 ("") for an unnamed CPU gap
    std::vector<int32_t> lane;         // index into reports[report]->lanes: the item's lane (for a gap,
                                       // the lane of the item after it); -1 when none
    std::vector<int32_t> event;        // the item's event index in `lane` for an item segment; -1 for a gap
    std::vector<uint32_t> lane_label;  // index into CriticalPath::lane_labels

    size_t size() const { return start_ns.size(); }
};

// Time on the path per (category, name), sorted by ns descending, then category name, then name.
struct PathNameTotal {
    PathCategory category = PathCategory::Cpu;
    std::string name;
    int64_t ns = 0;
};

// A collective on the path whose size its report records (docs/analyses.md, "Communication"):
// its Communication segment, size in bytes and bandwidths in GB/s (busbw NaN when the ranks are
// not recorded).
struct PathCollective {
    uint32_t segment = 0;  // index into PathSegments
    int64_t size_bytes = 0;
    double algbw_gbps = 0, busbw_gbps = 0;
};

struct CriticalPath {
    int64_t begin_ns = 0, end_ns = 0;  // the range [A, B], shared timeline
    bool several_ranks = false;        // several reports: lanes start with "rank N "
    std::vector<int64_t> offsets_ns;   // per report, ns added to its own times (rank alignment)
    PathSegments segments;
    // "pid P tid T CUDA API", "pid P GPU D stream S", "pid P tid T", with "rank N " before with
    // several reports; each distinct label once, in the order first used.
    std::vector<std::string> lane_labels;
    std::array<int64_t, kPathCategoryCount> by_category{};  // ns per category; sums to end_ns - begin_ns
    std::vector<PathNameTotal> by_name;                     // the top 50
    std::vector<PathCollective> collectives;                // sorted by segment
    // With what-if rules: the new range end minus begin_ns, and the new path's totals.
    std::optional<int64_t> what_if_length_ns;
    std::array<int64_t, kPathCategoryCount> what_if_by_category{};
    std::vector<PathNameTotal> what_if_by_name;
    std::vector<std::string> notes;  // what could not be done as asked (alignment), one line each
};

// The critical path of options.range over `reports` (one report, or the ranks of one job in
// rank order, aligned by their NCCL collectives as the Ranks panel aligns them). Linear in the
// reports' events but for sorts (O(n log n)); calls cancellationPoint() (analysis/Cancellation.h).
// Throws std::invalid_argument when the range ends before it starts or nothing is in the reports.
CriticalPath computeCriticalPath(const std::vector<const Report*>& reports, const CriticalPathOptions& options);

// The segments' name as text.
std::string_view segmentName(const std::vector<const Report*>& reports, const CriticalPath& path, size_t segment);

// CSV: `Start (ns),End (ns),Duration (ns),Category,Name,Lane`, and `,Rank` with several
// reports; a row per segment, fields quoted as Python's csv module quotes them, "\n" line ends.
std::string criticalPathCsv(const std::vector<const Report*>& reports, const CriticalPath& path);
// JSON: range, length_ns, by_category, by_name, segments, and what_if_length_ns / what_if with
// what-if rules (docs/analyses.md, "Output").
std::string criticalPathJson(const std::vector<const Report*>& reports, const CriticalPath& path);

}  // namespace lanescope
