#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/ranks/RankInput.h"
#include "model/Report.h"

namespace lanescope {

// A rank summary: a folder that `lanescope-cli summarize` writes where a report lives and that
// `compare` (and the Ranks panel) read in place of the full report; docs/rank-summary.md
// describes its files, fields and units. rank-summary.json holds the RankInput (in columns),
// the report's identity and a GPU gaps summary; beside it, nsys stats tables as CSV.
inline constexpr int kRankSummaryVersion = 1;
inline constexpr std::string_view kRankSummaryFormat = "lanescope-rank-summary";
inline constexpr std::string_view kRankSummaryFile = "rank-summary.json";
// Written beside it as `nsys stats -f csv -r NAME` prints them (nothing for an empty table).
inline constexpr std::string_view kRankSummaryStats[] = {"cuda_gpu_kern_sum", "cuda_api_sum", "nvtx_sum",
                                                         "cuda_gpu_mem_time_sum"};
// GPU gaps counted in the summary: longer than this, in ms; the longest few are listed.
inline constexpr double kRankSummaryGapMs = 1.0;
inline constexpr size_t kRankSummaryLongestGaps = 10;

// Writes the summary of `report` into `dir` (created if needed; files of the same names are
// replaced, nothing else is touched). "" when done, else one line saying what failed.
std::string writeRankSummary(const Report& report, const std::filesystem::path& dir);

// Whether `path` is a folder holding a rank-summary.json.
bool isRankSummary(const std::filesystem::path& path);

// The RankInput a summary folder holds; nullopt and one line in `error` (naming the file) when
// it is missing, not a rank summary, of a newer version, or inconsistent (columns of different
// lengths, kinds out of range, ends before starts). O(size of the file).
std::optional<RankInput> readRankSummary(const std::filesystem::path& dir, std::string& error);

}  // namespace lanescope
