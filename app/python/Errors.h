#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace lanescope::python {

// What cannot be done with a file or a report, raised in Python as lanescope.Error (a
// RuntimeError) with its one-line message: a file that cannot be read (the importer's reason),
// a query SQLite refuses (SQLite's message). Bad arguments (an unknown report, rule or table)
// are ValueErrors instead.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Says each line in a RuntimeWarning (what the cache of finished models had to say); a warning
// turned into an error (warnings.simplefilter("error")) is raised.
void warnEach(const std::vector<std::string>& lines);

}  // namespace lanescope::python
