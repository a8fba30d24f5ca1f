#include "app/python/Errors.h"

#include <pybind11/pybind11.h>

namespace lanescope::python {

void warnEach(const std::vector<std::string>& lines) {
    for (const std::string& line : lines)
        if (PyErr_WarnEx(PyExc_RuntimeWarning, line.c_str(), 1) != 0) throw pybind11::error_already_set();
}

}  // namespace lanescope::python
