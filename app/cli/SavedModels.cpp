#include "app/cli/SavedModels.h"

#include "app/cli/CliSupport.h"

namespace lanescope::cli {

SavedModel readSavedModel(const ReportCache& cache, const std::string& path, const ImportOptions& options,
                          std::stop_token stop, std::vector<std::string>& notes) {
    SavedModel saved;
    saved.key = cache.keyFor(path, ReportCache::variant(options.nsys_reader, options.nsys_path.string(), false), stop);
    if (!saved.key) return saved;
    std::string why;
    saved.report = cache.load(*saved.key, path, why, stop, options.threads);
    if (!saved.report && !why.empty()) notes.push_back(path + ": " + why + "; imported again");
    return saved;
}

void saveModel(const ReportCache& cache, const Report& report, const std::optional<std::string>& key,
               const std::string& path, std::vector<std::string>& notes) {
    std::string error;
    if (key && !cache.store(report, *key, error)) notes.push_back(path + ": " + error);
}

std::vector<std::shared_ptr<const Report>> importReportsThroughCache(const std::vector<std::string>& paths,
                                                                     const ImportOptions& options,
                                                                     const ReportCache& cache, ProgressSink& progress,
                                                                     std::string& error,
                                                                     std::vector<std::string>& notes) {
    std::vector<std::shared_ptr<const Report>> reports(paths.size());
    std::vector<std::optional<std::string>> keys(paths.size());
    std::vector<std::string> missing;
    std::vector<size_t> missingAt;
    for (size_t i = 0; i < paths.size(); ++i) {
        SavedModel saved = readSavedModel(cache, paths[i], options, {}, notes);
        keys[i] = std::move(saved.key);
        if (saved.report) {
            reports[i] = std::move(saved.report);
            continue;
        }
        missing.push_back(paths[i]);
        missingAt.push_back(i);
    }
    if (missing.empty()) return reports;
    const std::vector<std::shared_ptr<const Report>> imported = importReports(missing, options, progress, error);
    if (imported.empty()) return {};
    for (size_t k = 0; k < missing.size(); ++k) {
        const size_t i = missingAt[k];
        saveModel(cache, *imported[k], keys[i], paths[i], notes);
        reports[i] = imported[k];
    }
    return reports;
}

}  // namespace lanescope::cli
