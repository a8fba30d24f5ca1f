#include "app/cli/RankInputs.h"

#include <optional>

#include "analysis/ranks/RankCompare.h"
#include "analysis/ranks/RankSummary.h"
#include "app/cli/CliSupport.h"
#include "app/cli/SavedModels.h"

namespace lanescope::cli {

namespace {

std::vector<RankInput> rankInputs(const std::vector<std::string>& args, const ImportOptions& options,
                                  ProgressSink& progress, std::string& error, const ReportCache* cache,
                                  std::vector<std::string>* cacheNotes) {
    std::vector<RankInput> inputs(args.size());
    std::vector<std::string> files;
    std::vector<size_t> fileAt;
    for (size_t i = 0; i < args.size(); ++i) {
        if (!isRankSummary(args[i])) {
            files.push_back(args[i]);
            fileAt.push_back(i);
            continue;
        }
        std::optional<RankInput> in = readRankSummary(args[i], error);
        if (!in) return {};
        inputs[i] = std::move(*in);
    }
    if (files.empty()) return inputs;
    const auto reports = cache ? importReportsThroughCache(files, options, *cache, progress, error, *cacheNotes)
                               : importReports(files, options, progress, error);
    if (reports.empty()) return {};
    std::vector<const Report*> raw;
    for (const auto& r : reports) raw.push_back(r.get());
    std::vector<RankInput> extracted = extractRankInputs(raw);
    for (size_t k = 0; k < fileAt.size(); ++k) inputs[fileAt[k]] = std::move(extracted[k]);
    return inputs;
}

}  // namespace

std::vector<RankInput> loadRankInputs(const std::vector<std::string>& args, const ImportOptions& options,
                                      ProgressSink& progress, std::string& error) {
    return rankInputs(args, options, progress, error, nullptr, nullptr);
}

std::vector<RankInput> loadRankInputs(const std::vector<std::string>& args, const ImportOptions& options,
                                      ProgressSink& progress, std::string& error, const ReportCache& cache,
                                      std::vector<std::string>& cacheNotes) {
    return rankInputs(args, options, progress, error, &cache, &cacheNotes);
}

}  // namespace lanescope::cli
