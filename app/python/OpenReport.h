#pragma once
#include <pybind11/pybind11.h>

#include <filesystem>
#include <memory>
#include <string>

#include "app/python/OpenedReport.h"

namespace lanescope::python {

// lanescope.open(path, reader="native", progress=None, cache=False): imports the file as
// `lanescope-cli info` does (same importer, same options, logged the same way) on a thread of
// its own while the caller's thread waits without the GIL. With `cache` (and the environment
// not saying LANESCOPE_CACHE=off), the report is read back from the model saved in the
// viewer's cache folder (importers/cache/ReportCache.h) when one was saved from the same
// content, and its model saved there after an import; an entry it cannot use, or a model it
// cannot save, is said in a RuntimeWarning. From the caller's thread, every 50 ms at most and
// once the fraction has grown, it calls `progress` (when not None) with the fraction
// (ImportFraction), then with 1.0 once the report is ready, and checks for signals (Ctrl+C).
// An exception from `progress` or a signal stops the import and is raised; an import that
// fails raises Error with the importer's one-line reason; reader is "native" or "nsys"
// (ValueError otherwise).
std::unique_ptr<OpenedReport> openReport(const std::filesystem::path& path, const std::string& reader,
                                         const pybind11::object& progress, bool cache);

}  // namespace lanescope::python
