#pragma once
#include <pybind11/pybind11.h>

namespace lanescope::python {

// The parts of the module `lanescope`, each added by its own file: the Report class
// (ReportBinding.cpp) and lanescope.compare (CompareBinding.cpp). Module.cpp adds open(), the
// lists of names and the exception.
void bindReport(pybind11::module_& m);
void bindCompare(pybind11::module_& m);

}  // namespace lanescope::python
