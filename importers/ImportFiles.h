#pragma once
#include <filesystem>
#include <stop_token>
#include <vector>

#include "importers/Importer.h"

namespace lanescope {

// Imports several files at once (the ranks of one job): up to one import per core, each
// given its share of the cores, so eight reports use both cores of a laptop the whole time.
// Results are in the order of `paths`. `progress` receives "file K of N" stages.
std::vector<ImportResult> importFiles(const std::vector<std::filesystem::path>& paths, const ImportOptions& options,
                                      ProgressSink& progress, std::stop_token stop = {});

}  // namespace lanescope
