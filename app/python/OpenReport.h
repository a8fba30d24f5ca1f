#pragma once
#include <pybind11/pybind11.h>

#include <filesystem>
#include <memory>
#include <string>

#include "app/python/OpenedReport.h"

namespace lanescope::python {

// lanescope.open(path, reader="native", progress=None): imports the file as `lanescope-cli info`
// does (same importer, same options, logged the same way) on a thread of its own while the
// caller's thread waits without the GIL. From the caller's thread, every 50 ms at most and
// once the fraction has grown, it calls `progress` (when not None) with the fraction
// (ImportFraction), then with 1.0 once the report is ready, and checks for signals (Ctrl+C).
// An exception from `progress` or a signal stops the import and is raised; an import that
// fails raises Error with the importer's one-line reason; reader is "native" or "nsys"
// (ValueError otherwise).
std::unique_ptr<OpenedReport> openReport(const std::filesystem::path& path, const std::string& reader,
                                         const pybind11::object& progress);

}  // namespace lanescope::python
