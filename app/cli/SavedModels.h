#pragma once
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "importers/Importer.h"
#include "importers/cache/ReportCache.h"

namespace lanescope::cli {

// Reports read back from the cache of finished models (importers/cache/ReportCache.h), or
// imported and then saved there: the steps the Python module's open() and compare() share.
// Entries are of the variant ReportCache::variant(reader, nsys path, without the viewer's lanes).
// What the cache has to say (an entry it could not use, a model it could not save) is added to
// `notes`, one line each, starting with the file's path; the report is imported anyway.

// The lookup of one file: `key` names its entry (nullopt when the file cannot be read or `stop`
// was requested), `report` is the model read back, or null when there is none to use.
struct SavedModel {
    std::optional<std::string> key;
    std::unique_ptr<Report> report;
};
SavedModel readSavedModel(const ReportCache& cache, const std::string& path, const ImportOptions& options,
                          std::stop_token stop, std::vector<std::string>& notes);

// Saves an imported report under `key`, when there is one.
void saveModel(const ReportCache& cache, const Report& report, const std::optional<std::string>& key,
               const std::string& path, std::vector<std::string>& notes);

// importReports through the cache: each file whose model the cache holds is read back (one after
// the other), the others are imported together by importReports and then saved. In the given
// order; on the first failure an empty list and its one-line reason in `error`.
std::vector<std::shared_ptr<const Report>> importReportsThroughCache(const std::vector<std::string>& paths,
                                                                     const ImportOptions& options,
                                                                     const ReportCache& cache, ProgressSink& progress,
                                                                     std::string& error,
                                                                     std::vector<std::string>& notes);

}  // namespace lanescope::cli
