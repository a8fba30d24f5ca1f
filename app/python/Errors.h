#pragma once
#include <stdexcept>

namespace lanescope::python {

// What cannot be done with a file or a report, raised in Python as lanescope.Error (a
// RuntimeError) with its one-line message: a file that cannot be read (the importer's reason),
// a query SQLite refuses (SQLite's message). Bad arguments (an unknown report, rule or table)
// are ValueErrors instead.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace lanescope::python
