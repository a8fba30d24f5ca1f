// The Python module `lanescope` (docs/python.md): open(), compare(), the names of what a report
// computes, and lanescope.Error.
#include <pybind11/pybind11.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <string>

#include "analysis/Registry.h"
#include "app/log/Logging.h"
#include "app/python/Bindings.h"
#include "app/python/Errors.h"
#include "app/python/EventTables.h"
#include "app/python/OpenReport.h"

namespace py = pybind11;
using namespace lanescope;
using namespace lanescope::python;

PYBIND11_MODULE(lanescope, m) {
    m.doc() = "Nsight Systems, PyTorch profiler and Perfetto reports in Python: open(), compare() (docs/python.md).";
    m.attr("__version__") = LANESCOPE_VERSION;
    // spdlog's default logger would print the import log on stdout: the library keeps quiet.
    logging::init("lanescope", false, false);
    py::register_exception<Error>(m, "Error", PyExc_RuntimeError);

    bindReport(m);
    bindCompare(m);
    m.def("open", &openReport, py::arg("path"), py::arg("reader") = "native", py::arg("progress") = py::none(),
          py::arg("cache") = false,
          "Reads a report (nsys SQLite export, .nsys-rep/.qdrep, PyTorch profiler JSON, Perfetto trace)\n"
          "as `lanescope-cli info` does, without the GIL. reader: \"native\", or \"nsys\" to convert a\n"
          ".nsys-rep through the installed nsys. progress: called with a fraction 0..1 that only grows,\n"
          "ending with 1.0. cache: read the report back from the model saved in ~/.cache/lanescope when\n"
          "the same content was opened so before (Report.from_cache), else save its model there.\n"
          "Raises lanescope.Error with the one-line reason when the file cannot be read.");
    m.def(
        "stats_reports",
        [] {
            py::list names;
            for (const StatsReportEntry& e : statsReports()) names.append(py::str(std::string(e.name)));
            return names;
        },
        "The names Report.stats() takes.");
    m.def(
        "rules",
        [] {
            py::list names;
            for (const RuleEntry& e : rules()) names.append(py::str(std::string(e.name)));
            return names;
        },
        "The names Report.analyze() takes.");
    py::list tables;
    for (const EventTableSpec& t : eventTables()) tables.append(py::str(std::string(t.name)));
    m.attr("event_tables") = py::tuple(tables);
}
