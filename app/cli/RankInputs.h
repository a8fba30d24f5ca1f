#pragma once
#include <string>
#include <vector>

#include "analysis/ranks/RankInput.h"
#include "importers/Importer.h"
#include "importers/cache/ReportCache.h"

namespace lanescope::cli {

// What each argument of `compare` gives, in argument order: a rank summary folder
// (`lanescope-cli summarize`) read back, or a report imported (all reports together, in
// parallel, through importReports) and reduced to its RankInput, or to one per rank when it
// holds several (extractRanksOf: both ranks of a job under one `nsys profile torchrun`). Empty,
// with the one-line reason in `error`, when one cannot be read.
std::vector<RankInput> loadRankInputs(const std::vector<std::string>& args, const ImportOptions& options,
                                      ProgressSink& progress, std::string& error);

// loadRankInputs whose reports go through the cache of finished models
// (importReportsThroughCache), what it had to say added to `cacheNotes`, one line each.
std::vector<RankInput> loadRankInputs(const std::vector<std::string>& args, const ImportOptions& options,
                                      ProgressSink& progress, std::string& error, const ReportCache& cache,
                                      std::vector<std::string>& cacheNotes);

}  // namespace lanescope::cli
