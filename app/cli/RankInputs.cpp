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
    std::vector<std::vector<RankInput>> ofArg(args.size());  // a report may hold several ranks
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
        ofArg[i].push_back(std::move(*in));
    }
    if (!files.empty()) {
        const auto reports = cache ? importReportsThroughCache(files, options, *cache, progress, error, *cacheNotes)
                                   : importReports(files, options, progress, error);
        if (reports.empty()) return {};
        std::vector<const Report*> raw;
        for (const auto& r : reports) raw.push_back(r.get());
        std::vector<std::vector<RankInput>> extracted = extractRanksOfEach(raw);
        for (size_t k = 0; k < fileAt.size(); ++k) ofArg[fileAt[k]] = std::move(extracted[k]);
    }
    std::vector<RankInput> inputs;
    for (std::vector<RankInput>& ranks : ofArg)
        for (RankInput& in : ranks) inputs.push_back(std::move(in));
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
